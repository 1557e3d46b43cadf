/** Default length of the excerpts `inspect` prints without `--full`. */
export const DEFAULT_EXCERPT_CHARS = 160;

/**
 * One line of at most `maxChars` characters: newlines shown as `⏎`, runs of spaces collapsed,
 * and the number of characters left out said at the end.
 * @example excerpt('a\nb', 10) // 'a⏎b'
 */
export function excerpt(text: string, maxChars: number): string {
  const flat = text.replace(/\r?\n/g, '⏎').replace(/[ \t]+/g, ' ').trim();
  if (flat.length <= maxChars) return flat;
  return `${flat.slice(0, maxChars)}… (+${flat.length - maxChars} chars)`;
}

/**
 * `label: text` with the text as a one-line excerpt, or, when `full`, the label alone followed by
 * every line of the text indented by `indent`.
 */
export function labelled(label: string, text: string, full: boolean, maxChars: number, indent: string): string {
  if (text === '') return `${label}: (empty)`;
  if (!full) return `${label}: ${excerpt(text, maxChars)}`;
  return `${label}:\n${text.split('\n').map((line) => `${indent}${line}`.trimEnd()).join('\n')}`;
}
