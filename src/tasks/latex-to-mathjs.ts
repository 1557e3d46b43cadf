import { ownEntry } from '../core/index.js';
import { closingBrace } from './normalize-math-answer.js';

/** LaTeX commands that stand for a value or an operator, and their mathjs spelling. */
const SYMBOLS: Readonly<Record<string, string>> = {
  pi: ' pi ',
  infty: ' Infinity ',
  infinity: ' Infinity ',
  cdot: '*',
  times: '*',
  ast: '*',
  div: '/',
};

/** Functions a LaTeX answer may apply, and their mathjs names. */
const FUNCTIONS: Readonly<Record<string, string>> = {
  sin: 'sin',
  cos: 'cos',
  tan: 'tan',
  cot: 'cot',
  sec: 'sec',
  csc: 'csc',
  arcsin: 'asin',
  arccos: 'acos',
  arctan: 'atan',
  ln: 'log',
  exp: 'exp',
};

/** Greek letters used as variables; they stay single symbols. */
export const GREEK_LETTERS: readonly string[] = ['alpha', 'beta', 'gamma', 'delta', 'theta', 'lambda', 'mu', 'phi', 'psi', 'omega', 'sigma', 'tau', 'rho'];

/**
 * Rewrites a normalised LaTeX expression (see `normalizeMathAnswer`) as a mathjs expression:
 * `\frac{a}{b}` -> `((a)/(b))`, `\sqrt[n]{a}` -> `nthRoot((a),(n))`, `\pi` -> `pi`, `^{...}` ->
 * `^(...)`, `\sin^2x` -> `(sin(x))^(2)`, a mixed number `1\frac{4}{5}` -> `(1+4/5)`. Returns
 * undefined for anything it does not understand (subscripts, `\pm`, sets, unknown commands), so
 * the caller falls back to comparing strings.
 *
 * @example
 * latexToMathjs('\\frac{3\\sqrt{3}}{4}'); // '((3sqrt((3)))/(4))'
 */
export function latexToMathjs(latex: string): string | undefined {
  try {
    return convert(latex);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

class Unsupported extends Error {}

function convert(text: string): string {
  let output = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '\\') {
      const name = /^\\([a-zA-Z]+)/.exec(text.slice(index))?.[1];
      if (name === undefined) throw new Unsupported(`escaped ${text[index + 1]}`);
      index += name.length + 1;
      if (text[index] === ' ') index++;
      const step = command(name, text, index, output);
      output = step.output;
      index = step.index;
      continue;
    }
    if (char === '{') {
      const group = readGroup(text, index);
      output += `(${convert(group.content)})`;
      index = group.end;
      continue;
    }
    if (char === '^') {
      const group = readArgument(text, index + 1);
      output += `^(${convert(group.content)})`;
      index = group.end;
      continue;
    }
    if (/[\d.a-zA-Z+\-*/()! ]/.test(char)) {
      output += char;
      index++;
      continue;
    }
    throw new Unsupported(`character ${char}`);
  }
  return output;
}

function command(name: string, text: string, index: number, before: string): { output: string; index: number } {
  const symbol = ownEntry(SYMBOLS, name);
  if (symbol !== undefined) return { output: before + symbol, index };
  if (GREEK_LETTERS.includes(name)) return { output: `${before} ${name} `, index };
  if (name === 'frac' || name === 'binom') {
    const numerator = readArgument(text, index);
    const denominator = readArgument(text, numerator.end);
    if (name === 'binom') return { output: `${before} combinations((${convert(numerator.content)}),(${convert(denominator.content)}))`, index: denominator.end };
    const fraction = `((${convert(numerator.content)})/(${convert(denominator.content)}))`;
    // `1\frac{4}{5}` is a mixed number, 1 + 4/5, when a whole number directly precedes a fraction of whole numbers.
    const whole = /(^|[^\d.a-zA-Z)])(\d+)$/.exec(before);
    if (whole && /^\d+$/.test(numerator.content) && /^\d+$/.test(denominator.content)) {
      return { output: `${before.slice(0, before.length - whole[2]!.length)}(${whole[2]}+${fraction})`, index: denominator.end };
    }
    return { output: before + fraction, index: denominator.end };
  }
  if (name === 'sqrt') {
    if (text[index] === '[') {
      const close = text.indexOf(']', index);
      if (close === -1) throw new Unsupported('unclosed root index');
      const radicand = readArgument(text, close + 1);
      return { output: `${before} nthRoot((${convert(radicand.content)}),(${convert(text.slice(index + 1, close))}))`, index: radicand.end };
    }
    const radicand = readArgument(text, index);
    return { output: `${before} sqrt((${convert(radicand.content)}))`, index: radicand.end };
  }
  const fn = ownEntry(FUNCTIONS, name);
  if (fn !== undefined) {
    let next = index;
    let power: string | undefined;
    if (text[next] === '^') {
      const exponent = readArgument(text, next + 1);
      power = convert(exponent.content);
      next = exponent.end;
    }
    const argument = text[next] === '(' ? readParenthesised(text, next) : readArgument(text, next);
    const applied = ` ${fn}((${convert(argument.content)}))`;
    return { output: before + (power === undefined ? applied : `(${applied})^(${power})`), index: argument.end };
  }
  throw new Unsupported(`\\${name}`);
}

interface Group {
  content: string;
  end: number;
}

function readGroup(text: string, open: number): Group {
  const close = closingBrace(text, open);
  if (close === undefined) throw new Unsupported('unbalanced braces');
  return { content: text.slice(open + 1, close), end: close + 1 };
}

/** A TeX argument: a `{group}`, a command such as `\pi`, or one character. */
function readArgument(text: string, index: number): Group {
  let start = index;
  while (text[start] === ' ') start++;
  const char = text[start];
  if (char === undefined) throw new Unsupported('missing argument');
  if (char === '{') return readGroup(text, start);
  if (char === '\\') {
    const name = /^\\[a-zA-Z]+/.exec(text.slice(start))?.[0];
    if (name === undefined) throw new Unsupported('bad argument');
    return { content: name, end: start + name.length };
  }
  return { content: char, end: start + 1 };
}

function readParenthesised(text: string, open: number): Group {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    if (text[index] === '(') depth++;
    else if (text[index] === ')' && --depth === 0) return { content: text.slice(open + 1, index), end: index + 1 };
  }
  throw new Unsupported('unbalanced parentheses');
}
