/**
 * Matches one `${id}` reference (spaces inside the braces allowed, as the parser reads them);
 * ids follow NODE_ID_PATTERN. Linear: no nested quantifiers over overlapping classes.
 */
const REFERENCE = /\$\{[ \t]*([A-Za-z0-9_][A-Za-z0-9_-]{0,63})[ \t]*\}/g;

/**
 * Resolves a node's input: empty (or `""`, MAS-Orchestra's "leave it empty") means the
 * original question; every `${id}` naming a node that has answered becomes that answer, and
 * any other `${...}` (LaTeX such as `${(3^k)}^6`, an id no node has) stays as written. The
 * executor waits for every node an input names, so the answers are always there. One pass
 * over the template only, so text an upstream node produced (even if it contains `${other}`)
 * is inserted verbatim and never substituted again: a node cannot pull another node's output
 * into the plan through its answer. Nothing else is added: a node downstream of an edge whose
 * input does not use `${X}` sees only its own input (or the question), not X's answer.
 */
export function substituteInput(
  template: string,
  question: string,
  answers: ReadonlyMap<string, string>,
): string {
  const trimmed = template.trim();
  if (trimmed === '' || trimmed === '""') return question;
  return template.replace(REFERENCE, (whole, id: string) => answers.get(id) ?? whole);
}
