const WRAPPER_COMMANDS = ['\\boxed{', '\\text{', '\\textbf{', '\\mathrm{'];
const NUMBER = /^([+-]?)(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d+))?$/;

/**
 * The form answers are compared in when voting (self-consistency, debate convergence): trimmed,
 * lowercased, whitespace collapsed, surrounding `$` math delimiters and a trailing period
 * removed, `\boxed{}` / `\text{}` / `\textbf{}` / `\mathrm{}` unwrapped, and a plain number
 * written canonically (thousands commas dropped, trailing fractional zeros dropped, so `18.0`
 * and `18` vote together). It is deliberately shallow: full math equivalence is a grader's job.
 *
 * @example
 * normalizeAnswer(' $1,234.50$. '); // '1234.5'
 * normalizeAnswer('\\text{Paris}'); // 'paris'
 */
export function normalizeAnswer(answer: string): string {
  let current = answer;
  // Wrappers nest in any order (`$\boxed{18.0}$.`); a few passes reach the fixed point.
  for (let pass = 0; pass < 4; pass++) {
    const next = normalizeOnce(current);
    if (next === current) break;
    current = next;
  }
  return canonicalNumber(current) ?? current;
}

function normalizeOnce(value: string): string {
  let result = value.trim().replace(/\s+/g, ' ').toLowerCase();
  if (result.endsWith('.')) result = result.slice(0, -1).trimEnd();
  return unwrapCommands(stripMathDelimiters(result));
}

/** `$x$` and `$$x$$` -> `x`; counted by hand because a lazy regex here is quadratic on `$$$...`. */
function stripMathDelimiters(value: string): string {
  let leading = 0;
  while (value[leading] === '$') leading++;
  let trailing = 0;
  while (trailing < value.length - leading && value[value.length - 1 - trailing] === '$') trailing++;
  const strip = Math.min(leading, trailing);
  return strip === 0 ? value : value.slice(strip, value.length - strip).trim();
}

/** Replaces `\cmd{inner}` by `inner` for the wrapper commands, respecting nested braces. */
function unwrapCommands(value: string): string {
  let output = '';
  let index = 0;
  while (index < value.length) {
    const command = WRAPPER_COMMANDS.find((name) => value.startsWith(name, index));
    if (command === undefined) {
      output += value[index];
      index++;
      continue;
    }
    const innerStart = index + command.length;
    const close = matchingBrace(value, innerStart - 1);
    if (close === undefined) {
      output += value.slice(index);
      break;
    }
    output += value.slice(innerStart, close);
    index = close + 1;
  }
  return output;
}

function matchingBrace(value: string, open: number): number | undefined {
  let depth = 0;
  for (let index = open; index < value.length; index++) {
    const char = value[index];
    if (char === '\\') index++;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return index;
  }
  return undefined;
}

/** `-1,234.500` -> `-1234.5`; undefined when the value is not a plain decimal number. */
function canonicalNumber(value: string): string | undefined {
  const match = NUMBER.exec(value);
  if (match === null) return undefined;
  const [, sign = '', integerPart = '', fraction = ''] = match;
  if (integerPart === '' && fraction === '') return undefined;
  // String arithmetic rather than Number() so long integers keep every digit.
  const integer = integerPart.replace(/,/g, '').replace(/^0+(?=\d)/, '') || '0';
  const trimmedFraction = fraction.replace(/0+$/, '');
  const body = trimmedFraction === '' ? integer : `${integer}.${trimmedFraction}`;
  return body === '0' || sign !== '-' ? body : `-${body}`;
}
