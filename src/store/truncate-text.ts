/** Start of the marker appended to every text the store shortened; search for it to find them. */
export const TRUNCATION_MARKER = '[orchrm: truncated';

/**
 * Keeps the first `maxChars` characters of `text` and appends a marker saying how much was cut,
 * so a shortened prompt or response is never mistaken for the model's whole output.
 * @example truncateText('abcdef', 3) // 'abc\n[orchrm: truncated, kept 3 of 6 chars]'
 */
export function truncateText(text: string, maxChars: number | undefined): string {
  if (maxChars === undefined || text.length <= maxChars) return text;
  // Never split a surrogate pair: a lone half would not survive the UTF-8 round trip.
  const lastCode = text.charCodeAt(maxChars - 1);
  const keptChars = lastCode >= 0xd800 && lastCode <= 0xdbff ? maxChars - 1 : maxChars;
  return `${text.slice(0, keptChars)}\n${TRUNCATION_MARKER}, kept ${keptChars} of ${text.length} chars]`;
}
