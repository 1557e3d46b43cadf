import { beforeAll, describe, expect, test } from 'vitest';
import { decimalRational } from './exact-rational.js';
import { compareMathAnswers, mathGrader } from './math-grader.js';
import { normalizeMathAnswer } from './normalize-math-answer.js';
import { safeExpression } from './safe-expression.js';

/**
 * Issue 23, item 4: a model's answer is graded in bounded time and memory whatever it holds. Each
 * answer below took the old grader from about a second to days (measured on the build machine,
 * one grade against gold 0.5), all of it with the event loop blocked (so no episode timeout
 * could fire), or crashed it. They are graded in milliseconds now;
 * the bound asserted (half a second per answer, five grades) leaves room for a loaded machine, and
 * the old costs are each above it.
 */
const HOSTILE: readonly { name: string; answer: string; was: string }[] = [
  // TRAILING_WORD_UNIT split a run of letters into words in exponentially many ways.
  { name: 'a number then 44 letters', answer: `1 ${'a'.repeat(44)}!`, was: 'about 21 s per grade on the build machine, x1.6 per letter' },
  // mathjs computes C(n, k) with min(k, n - k) multiplications.
  { name: 'a binomial of huge operands', answer: '\\binom{1e14}{5e13}', was: 'days' },
  { name: 'a binomial of large operands', answer: '\\binom{20000000}{10000000}', was: '1.5 s per grade' },
  // `^\$+(.*?)\$+$` was cubic in a run of `$`.
  { name: 'a run of dollar signs', answer: `${'$'.repeat(999)}x`, was: '1.5 s' },
  // Nested integer powers made exact rationals of millions of digits, then passed the largest bigint.
  { name: 'nested powers in a fraction', answer: '\\frac{1}{((((9^{64})^{64})^{64})^{64})}', was: '3.8 s' },
  { name: 'deeper nested powers', answer: '\\frac{1}{(((((9^{64})^{64})^{64})^{64})^{64})}', was: '45 s, then a RangeError: Maximum BigInt size exceeded' },
  // The LaTeX reader recursed once per brace.
  { name: '100,000 nested braces', answer: `${'{'.repeat(50_000)}${'}'.repeat(50_000)}`, was: '8 s, then a RangeError: Maximum call stack size exceeded' },
  { name: 'a megabyte of text', answer: 'x '.repeat(500_000), was: '0.9 s' },
];

describe('math grading is bounded whatever the answer', () => {
  // mathjs loads on the first math grade (seconds on a busy machine): not part of any answer's cost.
  beforeAll(() => {
    compareMathAnswers('1', '2-1');
  });

  test.each(HOSTILE)('grades $name as wrong, without throwing, in milliseconds (was: $was)', ({ answer }) => {
    const startedAt = performance.now();
    for (const gold of ['5', '0.5', '\\frac{1}{2}', 'x^2+1']) expect(compareMathAnswers(gold, answer).correct).toBe(false);
    expect(mathGrader({ id: 't', suite: 'math', question: 'q', answer: '5', metadata: {} }, answer)).toMatchObject({ correct: false });
    expect(performance.now() - startedAt).toBeLessThan(500);
  });

  test('still grades what the caps leave whole', () => {
    expect(compareMathAnswers('2 dollars', '2')).toMatchObject({ correct: true });
    expect(normalizeMathAnswer('18 square feet')).toBe('18');
    expect(normalizeMathAnswer('$$\\frac{1}{2}$$')).toBe('\\frac{1}{2}');
    expect(normalizeMathAnswer('$$$')).toBe('');
    expect(compareMathAnswers('\\binom{10}{3}', '120')).toMatchObject({ correct: true, method: 'math_numeric' });
    expect(compareMathAnswers('\\frac{1}{2^{64}}', '\\frac{1}{18446744073709551616}')).toMatchObject({ correct: true });
    expect(safeExpression('combinations(1030, 515)')?.evaluate({})).toBeUndefined();
    expect(safeExpression('combinations(2000, 3)')?.evaluate({})).toEqual({ re: 1331334000, im: 0 });
  });

  test('keeps exact rationals within 4,096 bits', () => {
    const exact = (text: string) => {
      const expression = safeExpression(text);
      return expression?.exact();
    };
    expect(exact('(2^64)^63')).toEqual({ numerator: 2n ** 4032n, denominator: 1n });
    expect(exact('(2^64)^65')).toBeUndefined();
    expect(exact('((9^64)^64)^64')).toBeUndefined();
    expect(decimalRational('0.125')).toEqual({ numerator: 1n, denominator: 8n });
  });
});
