/** Code-unit order of two strings: locale-independent, so sorted output is the same on every machine. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
