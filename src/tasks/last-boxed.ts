const BOX_COMMAND = /\\(?:boxed|fbox)(?![a-zA-Z])/g;

/**
 * The contents of the last `\boxed{...}` (or `\fbox{...}`) in a text, braces balanced; undefined
 * when there is none. Solutions and model outputs put their final answer there. `\boxed 5`
 * (no braces) boxes the next token.
 *
 * @example
 * lastBoxed('so $x = \\boxed{\\frac{1}{2}}$.'); // '\\frac{1}{2}'
 */
export function lastBoxed(text: string): string | undefined {
  const commands = [...text.matchAll(BOX_COMMAND)];
  const last = commands.at(-1);
  if (last === undefined) return undefined;
  const after = last.index + last[0].length;
  const rest = text.slice(after);
  if (!rest.trimStart().startsWith('{')) return /^\s+([^\s$]+)/.exec(rest)?.[1];
  const open = after + rest.indexOf('{');
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') index++;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return text.slice(open + 1, index).trim();
  }
  return undefined;
}
