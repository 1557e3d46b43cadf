/**
 * The shape of a normalised math answer. `parts` are the pieces compared one by one: tuple or
 * interval components, set or list elements, union members, matrix cells (row-major, `rows`
 * rows) or the two sides of an equation.
 */
export interface Structure {
  kind: 'scalar' | 'tuple' | 'set' | 'list' | 'union' | 'matrix' | 'equation';
  parts: string[];
  /** Opening and closing bracket of a tuple or interval (`(`, `[`), empty otherwise. */
  open: string;
  close: string;
  /** Matrix rows; 0 for everything else. */
  rows: number;
}

const MATRIX = /^\\begin\{([pbBvV]?matrix|array)\}(?:\{[^}]*\})?(.*)\\end\{\1\}$/s;

/**
 * Reads the structure of a normalised (whitespace-free) answer: a matrix environment, a union
 * (`\cup`), a `\pm` pair (a two-element set), a `\{...\}` set, a bracketed tuple or interval
 * with two or more components, an equation with one `=`, a bare comma list, or a scalar.
 *
 * @example
 * structureOf('(0,9)\\cup(9,36)'); // { kind: 'union', parts: ['(0,9)', '(9,36)'], ... }
 */
export function structureOf(text: string): Structure {
  const of = (kind: Structure['kind'], parts: string[], open = '', close = '', rows = 0): Structure => ({ kind, parts, open, close, rows });
  const matrix = MATRIX.exec(text);
  if (matrix) {
    const rows = splitTopLevel(matrix[2]!, '\\\\').filter((row) => row !== '');
    const cells = rows.map((row) => splitTopLevel(row, '&'));
    const width = cells[0]?.length ?? 0;
    if (cells.some((row) => row.length !== width)) return of('scalar', [text]);
    return of('matrix', cells.flat(), '', '', rows.length);
  }
  const union = splitTopLevel(text, '\\cup');
  if (union.length > 1) return of('union', union);
  const plusMinus = expandPlusMinus(text);
  if (plusMinus.length === 2) return of('set', plusMinus);
  if (text.startsWith('\\{') && text.endsWith('\\}')) return of('set', splitTopLevel(text.slice(2, -2), ',').flatMap(expandPlusMinus));
  const first = text[0];
  const last = text.at(-1);
  if ((first === '(' || first === '[') && (last === ')' || last === ']') && wrapsWhole(text)) {
    const parts = splitTopLevel(text.slice(1, -1), ',');
    if (parts.length > 1) return of('tuple', parts, first, last);
  }
  const sides = splitTopLevel(text, '=');
  if (sides.length === 2 && sides.every((side) => side !== '')) return of('equation', sides);
  const items = splitTopLevel(text, ',');
  if (items.length > 1) return of('list', items.flatMap(expandPlusMinus));
  return of('scalar', [text]);
}

/** `a\pm b` -> [`a+b`, `a-b`] (`\pm b` -> [`b`, `-b`]); anything else -> [text]. */
function expandPlusMinus(text: string): string[] {
  const sides = splitTopLevel(text, '\\pm');
  if (sides.length !== 2 || sides[1] === '') return [text];
  const [left = '', right = ''] = sides;
  return left === '' ? [right, `-${right}`] : [`${left}+${right}`, `${left}-${right}`];
}

/**
 * Splits at every top-level occurrence of `separator`: outside `()`, `[]`, `{}` (any mix, so
 * half-open intervals count) and outside `\{ \}`.
 */
export function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (depth === 0 && text.startsWith(separator, index)) {
      // `\cup` must not match inside a longer command such as `\cupdot`.
      if (!/^[a-zA-Z]/.test(separator.slice(1)) || !/[a-zA-Z]/.test(text[index + separator.length] ?? '')) {
        parts.push(text.slice(start, index));
        index += separator.length - 1;
        start = index + 1;
        continue;
      }
    }
    if (char === '\\') {
      const next = text[index + 1];
      if (next === '{') depth++;
      else if (next === '}') depth--;
      index++;
    } else if (char === '(' || char === '[' || char === '{') depth++;
    else if (char === ')' || char === ']' || char === '}') depth--;
  }
  parts.push(text.slice(start));
  return parts;
}

/** True when the bracket opening at 0 closes at the last character (not `(1,2)\cup(3,4)`). */
function wrapsWhole(text: string): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') index++;
    else if (char === '(' || char === '[' || char === '{') depth++;
    else if ((char === ')' || char === ']' || char === '}') && --depth === 0) return index === text.length - 1;
  }
  return false;
}
