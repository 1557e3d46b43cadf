/** Matches one `${id}` reference; ids follow NODE_ID_PATTERN. Linear: no nested quantifiers. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_-]{0,63})\}/g;

/**
 * Resolves a node's input: empty means the original question; every `${id}` becomes the
 * upstream node's answer. One pass over the template only, so text an upstream node produced
 * (even if it contains `${other}`) is inserted verbatim and never substituted again: a node
 * cannot pull another node's output into the plan through its answer.
 */
export function substituteInput(
  template: string,
  question: string,
  answers: ReadonlyMap<string, string>,
): string {
  if (template.trim() === '') return question;
  return template.replace(REFERENCE, (whole, id: string) => answers.get(id) ?? whole);
}
