import { lastBoxed } from './last-boxed.js';

/**
 * Longest answer normalised and compared beyond string equality: 1,000 characters (after the last
 * `\boxed{}` is taken). The longest MATH-500 gold answer has 53; a longer text is a whole
 * solution or model output, which no normalisation turns into a gold answer. The cap bounds what
 * each step may cost: no step is worse than quadratic in its input, so grading an answer costs
 * milliseconds whatever it holds (issue 23).
 */
export const MAX_GRADED_ANSWER_CHARS = 1_000;

/** Commands whose argument is plain text: unwrapped (or dropped when they hold a trailing unit). */
const TEXT_COMMANDS = ['text', 'textbf', 'textit', 'textrm', 'mathrm', 'mathbf', 'mbox', 'operatorname'];
const TEXT_COMMAND = `\\\\(?:${TEXT_COMMANDS.join('|')})`;
/** A unit written after the value: `\text{ cm}^2`, `\mbox{ inches}`, `\text{ degrees}`. */
const TRAILING_TEXT_UNIT = new RegExp(`(\\S)\\s*${TEXT_COMMAND}\\s*\\{\\s*[a-zA-Z][a-zA-Z .]*\\}(\\^\\{?\\d\\}?)?\\s*$`);
/**
 * A unit in plain words after a number: `18 dollars`, `5.4 cents`, `3 sq. ft`. Each word is a
 * whole run of letters (`(?![a-zA-Z])`): without that, a run could be split into words in
 * exponentially many ways, and a 45-letter answer that fails at its end took 8.5 s (issue 23).
 */
const TRAILING_WORD_UNIT = /^([-+]?(?:\d[\d,]*)?\.?\d+)\s*(?:[a-zA-Z]{2,}(?![a-zA-Z])\.?(?:\^\d)?\s*)+$/;
const THOUSANDS = /^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
/** A sentence around the answer: `The answer is 4.`, `So the final answer is: 4`, `Final Answer: The final answer is 4. I hope it is correct.` */
const ANSWER_LEAD_IN = /^(?:(?:so|thus|therefore|hence)[,:]?\s+)?(?:the\s+)?(?:final\s+)?answer\s*(?:is\s*:?|:|=)\s*/i;
const ANSWER_TAIL = /[\s.]*I hope it is correct\.?\s*$/i;
/** A hedge: the value is an estimate, which no exact answer matches. */
const HEDGE = /^(?:approximately|approx\.?|about|around|roughly|nearly|almost|close\s+to|≈|\\approx(?![a-zA-Z]))\s*/i;
/** `1.5 million`, `\$2 billion`, `3 thousand`: the number, written out. */
const SCALED_NUMBER = /^([-+]?(?:\d[\d,]*)?\.?\d+)\s*(thousand|million|billion|trillion)s?(?![a-zA-Z])(.*)$/i;
const SCALE_DIGITS: Readonly<Record<string, number>> = { thousand: 3, million: 6, billion: 9, trillion: 12 };
/** `inf`, `infinity`, `∞`: LaTeX's `\infty`. */
const INFINITY_WORD = /(?<![a-zA-Z\\])inf(?:inity)?(?![a-zA-Z])|∞/gi;
/** Spacing and sizing commands that change nothing about the value. */
const NOISE = /\\(?:left|right|bigl|bigr|Bigl|Bigr|big|Big|displaystyle|textstyle|q?quad)(?![a-zA-Z])|(?<!\\)\\[!,;: ]|~/g;

/**
 * Normalises a math answer to a canonical LaTeX-ish string, in the spirit of the Hendrycks MATH
 * `strip_string` and its successors (PRM800K's grader, lm-eval's Minerva math): takes the last
 * `\boxed{}`, drops a sentence around the answer (`The answer is 4.`), `$` and `\(` delimiters,
 * `\left`/`\right` and spacing commands, degrees (`^\circ`), percent and dollar signs, a
 * trailing unit (`\text{ cm}^2`, `18 dollars`), a leading `x =` or `x \in`, thousands commas
 * (`10,\!080` too) and all whitespace; writes out scale words (`1.5 million` is `1500000`);
 * rewrites `\dfrac`/`\tfrac` as `\frac`, `\frac12` as `\frac{1}{2}`, `\sqrt2` as `\sqrt{2}`,
 * `inf` and `∞` as `\infty` and `.5` as `0.5`; unwraps `\text{}` and a lone `(C)`. A hedged
 * answer (`approximately 9`) becomes `\approx9`, which matches no exact answer. A text over
 * `MAX_GRADED_ANSWER_CHARS` (after `\boxed{}`) is returned trimmed, not normalised.
 *
 * @example
 * normalizeMathAnswer('$\\boxed{\\dfrac12}$'); // '\\frac{1}{2}'
 * normalizeMathAnswer('\\$1,234.50'); // '1234.50'
 */
export function normalizeMathAnswer(answer: string): string {
  let text = (lastBoxed(answer) ?? answer).trim();
  // Too long to be an answer: returned as it is, which `mathEquivalence` compares as a string only.
  if (text.length > MAX_GRADED_ANSWER_CHARS) return text;
  text = stripLeadIn(text);
  // A hedged value (`approximately 9`) is kept as `\approx 9`: it states an estimate, not the answer.
  const hedge = HEDGE.exec(text);
  if (hedge) text = `\\approx ${text.slice(hedge[0].length)}`;
  text = stripDelimiters(text);
  // MATH's thousands separator `10,\!080` (and `10{,}080`) is a plain comma.
  text = text.replace(/,\s*\\!\s*/g, ',').replace(/\{,\}/g, ',');
  text = text.replace(NOISE, ' ');
  text = text.replace(/\\[dt]frac/g, '\\frac').replace(/\\[dt]binom/g, '\\binom');
  // Degrees and percent: the value is what is graded (MATH golds write `90^\circ` or `90`).
  text = text.replace(/\^\s*\{?\s*\\circ\s*\}?|°|\\degree(?![a-zA-Z])/g, '').replace(/\\?%/g, '');
  text = text.replace(/\\\$|\$/g, '');
  text = text.replace(TRAILING_TEXT_UNIT, '$1');
  text = unwrapTextCommands(text).trim();
  text = text.replace(INFINITY_WORD, '\\infty');
  text = text.replace(/\s*(?:degrees?|deg)\.?$/i, '');
  const scaled = SCALED_NUMBER.exec(text);
  if (scaled) text = `${scaleDecimal(scaled[1]!, SCALE_DIGITS[scaled[2]!.toLowerCase()]!)}${scaled[3]!}`.trim();
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

/** Removes the sentence around an answer (`The final answer is 4. I hope it is correct.` -> `4.`). */
function stripLeadIn(text: string): string {
  let current = text.replace(ANSWER_TAIL, '');
  // Minerva's `Final Answer: The final answer is 4` has two lead-ins.
  for (let pass = 0; pass < 2; pass++) current = current.replace(ANSWER_LEAD_IN, '');
  return current.trim();
}

/** `1.5` and 6 digits -> `1500000`, exactly (no floating point). */
function scaleDecimal(number: string, digits: number): string {
  const [integer = '', fraction = ''] = number.replace(/,/g, '').split('.');
  const padded = fraction.padEnd(digits, '0');
  const whole = `${integer}${padded.slice(0, digits)}`;
  const rest = padded.slice(digits).replace(/0+$/, '');
  const sign = whole.startsWith('-') || whole.startsWith('+') ? whole[0]! : '';
  const unsigned = whole.replace(/^[+-]/, '').replace(/^0+(?=\d)/, '') || '0';
  return `${sign === '-' ? '-' : ''}${unsigned}${rest === '' ? '' : `.${rest}`}`;
}

function stripDelimiters(text: string): string {
  let current = text;
  for (let pass = 0; pass < 3; pass++) {
    const next = current
      .replace(/^\\\((.*)\\\)$/s, '$1')
      .replace(/^\\\[(.*)\\\]$/s, '$1')
      .replace(/^\$.*\$$/s, stripDollars)
      .replace(/\.$/, '')
      .trim();
    if (next === current) break;
    current = next;
  }
  return current;
}

/**
 * `$$x$$` -> `x`: every leading and trailing `$` (a text of `$` only becomes empty). A scan, as
 * `/^\$+(.*?)\$+$/s` took time cubic in a run of `$` (750 ms for 1,000).
 */
function stripDollars(text: string): string {
  let start = 0;
  while (text[start] === '$') start++;
  let end = text.length;
  while (end > start && text[end - 1] === '$') end--;
  return text.slice(start, end);
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
