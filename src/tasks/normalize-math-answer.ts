import { lastBoxed } from './last-boxed.js';

/** Commands whose argument is plain text: unwrapped (or dropped when they hold a trailing unit). */
const TEXT_COMMANDS = ['text', 'textbf', 'textit', 'textrm', 'mathrm', 'mathbf', 'mbox', 'operatorname'];
const TEXT_COMMAND = `\\\\(?:${TEXT_COMMANDS.join('|')})`;
/** A unit written after the value: `\text{ cm}^2`, `\mbox{ inches}`, `\text{ degrees}`. */
const TRAILING_TEXT_UNIT = new RegExp(`(\\S)\\s*${TEXT_COMMAND}\\s*\\{\\s*[a-zA-Z][a-zA-Z .]*\\}(\\^\\{?\\d\\}?)?\\s*$`);
/** A unit in plain words after a number: `18 dollars`, `5.4 cents`, `3 sq. ft`. */
const TRAILING_WORD_UNIT = /^([-+]?(?:\d[\d,]*)?\.?\d+)\s*(?:[a-zA-Z]{2,}\.?(?:\^\d)?\s*)+$/;
const THOUSANDS = /^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
/** Spacing and sizing commands that change nothing about the value. */
const NOISE = /\\(?:left|right|bigl|bigr|Bigl|Bigr|big|Big|displaystyle|textstyle|q?quad)(?![a-zA-Z])|(?<!\\)\\[!,;: ]|~/g;

/**
 * Normalises a math answer to a canonical LaTeX-ish string, in the spirit of the Hendrycks MATH
 * `strip_string` and its successors: takes the last `\boxed{}`, drops `$` and `\(` delimiters,
 * `\left`/`\right` and spacing commands, degrees (`^\circ`), percent and dollar signs, a
 * trailing unit (`\text{ cm}^2`, `18 dollars`), a leading `x =` or `x \in`, thousands commas
 * and all whitespace; rewrites `\dfrac`/`\tfrac` as `\frac`, `\frac12` as `\frac{1}{2}`,
 * `\sqrt2` as `\sqrt{2}` and `.5` as `0.5`; unwraps `\text{}` and a lone `(C)`.
 *
 * @example
 * normalizeMathAnswer('$\\boxed{\\dfrac12}$'); // '\\frac{1}{2}'
 * normalizeMathAnswer('\\$1,234.50'); // '1234.50'
 */
export function normalizeMathAnswer(answer: string): string {
  let text = (lastBoxed(answer) ?? answer).trim();
  text = stripDelimiters(text);
  text = text.replace(NOISE, ' ');
  text = text.replace(/\\[dt]frac/g, '\\frac').replace(/\\[dt]binom/g, '\\binom');
  // Degrees and percent: the value is what is graded (MATH golds write `90^\circ` or `90`).
  text = text.replace(/\^\s*\{?\s*\\circ\s*\}?|°|\\degree(?![a-zA-Z])/g, '').replace(/\\?%/g, '');
  text = text.replace(/\\\$|\$/g, '');
  text = text.replace(TRAILING_TEXT_UNIT, '$1');
  text = unwrapTextCommands(text).trim();
  text = text.replace(/\s*(?:degrees?|deg)\.?$/i, '');
  const wordUnit = TRAILING_WORD_UNIT.exec(text);
  if (wordUnit) text = wordUnit[1]!;
  if (THOUSANDS.test(text)) text = text.replace(/,/g, '');
  // `x = 5`, `k=3`, `x \in [-2, 7]`: the answer is the value. `y = 2x + 3` stays an equation.
  text = text.replace(/^[a-zA-Z]\s*\\in(?![a-zA-Z])\s*/, '').replace(/^[a-zA-Z]\s*=\s*(?=[^=a-zA-Z]*$)/, '');
  // Whitespace goes, except where it ends a command name (`\cot x` must not become `\cotx`).
  text = text.replace(/(\\[a-zA-Z]+)\s+(?=[a-zA-Z])/g, '$1\u0000').replace(/\s+/g, '').replace(/\u0000/g, ' ');
  text = text.replace(/\\frac(\d)(\d)/g, '\\frac{$1}{$2}').replace(/\\frac\{([^{}]*)\}(\d)/g, '\\frac{$1}{$2}').replace(/\\frac(\d)\{/g, '\\frac{$1}{');
  text = text.replace(/\\sqrt(\d+|[a-zA-Z])/g, '\\sqrt{$1}');
  text = text.replace(/_\{([a-zA-Z0-9]+)\}/g, '_$1');
  text = text.replace(/(^|[^\d])\.(\d)/g, '$10.$2');
  text = text.replace(/\.$/, '');
  // A multiple-choice letter: `(C)` and `C` are the same answer.
  const choice = /^\(([A-Z])\)$/.exec(text);
  return choice ? choice[1]! : text;
}

function stripDelimiters(text: string): string {
  let current = text;
  for (let pass = 0; pass < 3; pass++) {
    const next = current
      .replace(/^\\\((.*)\\\)$/s, '$1')
      .replace(/^\\\[(.*)\\\]$/s, '$1')
      .replace(/^\$+(.*?)\$+$/s, '$1')
      .replace(/\.$/, '')
      .trim();
    if (next === current) break;
    current = next;
  }
  return current;
}

/** `\text{east}` -> `east`, braces balanced. */
function unwrapTextCommands(text: string): string {
  const command = new RegExp(`${TEXT_COMMAND}\\s*\\{`, 'g');
  let output = '';
  let from = 0;
  for (let match = command.exec(text); match !== null; match = command.exec(text)) {
    const open = match.index + match[0].length - 1;
    const close = closingBrace(text, open);
    if (close === undefined) break;
    output += text.slice(from, match.index) + text.slice(open + 1, close);
    from = close + 1;
    command.lastIndex = from;
  }
  return output + text.slice(from);
}

/** Index of the `}` matching the `{` at `open`, or undefined when unbalanced. */
export function closingBrace(text: string, open: number): number | undefined {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') index++;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return index;
  }
  return undefined;
}
