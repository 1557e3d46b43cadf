import { describe, expect, test } from 'vitest';
import { compareMathAnswers } from './math-grader.js';
import { latexToMathjs } from './latex-to-mathjs.js';

/** [gold, predicted]: pairs a MATH grader must accept. */
const EQUIVALENT: readonly (readonly [string, string])[] = [
  ['\\frac{1}{2}', '0.5'],
  ['\\frac{1}{2}', '1/2'],
  ['\\frac12', '\\dfrac{1}{2}'],
  ['\\frac{1}{2}', '\\tfrac12'],
  ['0.5', '.5'],
  ['\\left( 3, \\frac{\\pi}{2} \\right)', '(3, \\frac{\\pi}{2})'],
  ['\\left( 3, \\frac{\\pi}{2} \\right)', '(3,\\pi/2)'],
  ['\\frac{14}{3}', '4\\frac{2}{3}'],
  ['137 \\frac{1}{2}', '137.5'],
  ['3\\sqrt{13}', '\\sqrt{117}'],
  ['11\\sqrt2', '11\\sqrt{2}'],
  ['\\frac{\\sqrt{3}}{3}', '\\frac{1}{\\sqrt{3}}'],
  ['\\frac{3\\sqrt{3}}{4}', '0.75\\sqrt{3}'],
  ['\\sqrt[3]{8}', '2'],
  ['2\\pi', '\\pi \\cdot 2'],
  ['-\\frac{\\pi}{6}', '-\\pi/6'],
  ['18+2\\pi', '2\\pi+18'],
  ['90^\\circ', '90'],
  ['90^\\circ', '90^{\\circ}'],
  ['\\frac{270}7\\text{ degrees}', '\\frac{270}{7}'],
  ['864 \\mbox{ inches}^2', '864'],
  ['5.4 \\text{ cents}', '5.4'],
  ['15\\mbox{ cm}^2', '15 \\text{cm}^2'],
  ['50\\%', '50'],
  ['\\$32', '32'],
  ['1,000,000', '1000000'],
  ['x=5', '5'],
  ['x \\in [-2,7]', '[-2, 7]'],
  ['y = 2x + 3', 'y=3+2x'],
  ['y = -2x', '2x + y = 0'],
  ['5x - 7y + 11z + 4 = 0', '-10x + 14y - 22z - 8 = 0'],
  ['x^5 - x^4 + x^3 - x^2 + x - 1', '(x-1)(x^4+x^2+1)'],
  ['\\frac{11+9a}{20}', '\\frac{9a}{20}+\\frac{11}{20}'],
  ['p - q', '-q + p'],
  ['\\cot x', '\\frac{\\cos x}{\\sin x}'],
  ['\\sin^2 x + \\cos^2 x', '1'],
  ['6 - 5i', '6-5i'],
  ['-2 + 7i', '7i - 2'],
  ['1,-2', '-2, 1'],
  ['3, 5, 7', '7,3,5'],
  ['1 \\pm \\sqrt{19}', '1+\\sqrt{19}, 1-\\sqrt{19}'],
  ['3 \\pm 2 \\sqrt{2}', '3-2\\sqrt2,3+2\\sqrt2'],
  ['\\{1\\pm\\sqrt{5},-2\\}', '\\{-2, 1+\\sqrt5, 1-\\sqrt5\\}'],
  ['(-\\infty, 0]', '(-\\infty,0]'],
  ['(-\\infty, 2) \\cup (3, \\infty)', '\\left(-\\infty,2\\right)\\cup\\left(3,\\infty\\right)'],
  ['\\left(\\frac{3}{5},\\frac{8}{3}\\right]', '(0.6, \\frac{8}{3}]'],
  ['(6,31,-1)', '(6, 31, -1)'],
  ['\\begin{pmatrix} -1/3 \\\\ 2/3 \\\\ 5/3 \\end{pmatrix}', '\\begin{pmatrix} -\\frac13 \\\\ \\frac23 \\\\ \\frac53 \\end{pmatrix}'],
  ['\\begin{pmatrix} -1 & 0 \\\\ 0 & -1 \\end{pmatrix}', '\\begin{bmatrix} -1 & 0 \\\\ 0 & -1 \\end{bmatrix}'.replace(/bmatrix/g, 'pmatrix')],
  ['\\begin{pmatrix} 1/5 \\\\ -18/5 \\end{pmatrix}', '(0.2, -3.6)'],
  ['\\text{Evelyn}', 'Evelyn'],
  ['\\text{east}', 'East'],
  ['\\text{(C)}', 'C'],
  ['\\boxed{\\frac{3}{56}}', '$\\frac{3}{56}$'],
  ['52_8', '52_{8}'],
  ['\\frac{20000}{\\pi}', '20000/\\pi'],
  ['\\binom{5}{2}', '10'],
  ['2\\sqrt{5}', '\\sqrt{20}'],
  ['\\frac{\\pi^2}{8}', '\\pi^2/8'],
  // MATH-500's thousands separator `,\!` (issue 14: 3 of its 500 golds).
  ['10,\\!080', '10080'],
  ['10,\\!080', '10,080'],
  ['\\$32,\\!348', '32348'],
  ['\\$32,\\!348', '\\$32,348'],
  ['11,\\! 111,\\! 111,\\! 100', '11111111100'],
  ['10{,}000', '10000'],
  // Scale words, written out exactly.
  ['1000000', '1 million'],
  ['1500000', '1.5 million'],
  ['2500000000', '\\$2.5 billion'],
  ['3000', '3 thousand'],
  // Infinity in any spelling.
  ['\\infty', 'inf'],
  ['\\infty', '∞'],
  ['-\\infty', '-infinity'],
  ['(2,\\infty)', '(2, inf)'],
  ['(-\\infty, 0]', '(-inf, 0]'],
  // A sentence around the answer, as Minerva and Qwen-Math extract it.
  ['4', 'The answer is 4.'],
  ['4', 'So the final answer is: $4$'],
  ['\\frac{1}{2}', 'Final Answer: The final answer is $\\frac{1}{2}$. I hope it is correct.'],
  ['18', 'The answer is \\boxed{18}.'],
  // Decimals that are exactly the fraction.
  ['\\frac{1}{8}', '0.125'],
  ['-\\frac{1}{4}', '-0.25'],
  ['\\frac{3}{2}', '1.50'],
  ['(1/2)^3', '0.125'],
  ['\\sqrt{2.25}', '1.5'],
  // The usual equivalences.
  ['\\dfrac{3}{4}', '\\frac34'],
  ['\\left[ -2, 5 \\right)', '[-2,5)'],
  ['45^\\circ', '45^{\\circ}'],
  ['12\\text{ cm}', '12'],
  ['12 \\text{cm}^2', '12'],
  ['25\\%', '25'],
  ['x = -3', '-3'],
  ['-\\frac{1}{2}', '\\frac{-1}{2}'],
  ['-\\frac{1}{2}', '- 0.5'],
  ['10', '10.0'],
  ['10.0', '10'],
  ['-7', '-7.00'],
  ['\\sqrt{8}', '2\\sqrt{2}'],
  ['\\frac{\\sqrt{2}}{2}', '\\frac{1}{\\sqrt{2}}'],
  ['(1, -2)', '\\left( 1, -2 \\right)'],
  ['[0, 1]', '\\left[0,1\\right]'],
  ['\\text{(B)}', '(B)'],
];

/** [gold, predicted]: pairs a MATH grader must reject. */
const NOT_EQUIVALENT: readonly (readonly [string, string])[] = [
  ['x^2+1', 'x^2-1'],
  ['\\frac{1}{3}', '0.33'],
  ['\\frac{1}{2}', '\\frac{1}{3}'],
  ['\\pi', '3.14'],
  ['3\\sqrt{13}', '3\\sqrt{12}'],
  ['(3, \\frac{\\pi}{2})', '(\\frac{\\pi}{2}, 3)'],
  ['(2,\\infty)', '[2,\\infty)'],
  ['(-\\infty, 0]', '(-\\infty, 0)'],
  ['(0,9) \\cup (9,36)', '(0,36)'],
  ['1 \\pm \\sqrt{19}', '1+\\sqrt{19}'],
  ['3, 5, 7', '3, 5'],
  ['6 - 5i', '6+5i'],
  ['y = 2x + 3', 'y = 2x - 3'],
  ['5x - 7y + 11z + 4 = 0', '5x - 7y + 11z - 4 = 0'],
  ['\\begin{pmatrix} -1 & 0 \\\\ 0 & -1 \\end{pmatrix}', '\\begin{pmatrix} -1 & 0 \\\\ 0 & 1 \\end{pmatrix}'],
  ['\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}', '\\begin{pmatrix} 1 \\\\ 2 \\\\ 0 \\end{pmatrix}'],
  ['x^5 - x^4 + x^3 - x^2 + x - 1', 'x^5 - x^4 + x^3 - x^2 + x + 1'],
  ['p - q', 'q - p'],
  ['\\frac{11+9a}{20}', '\\frac{11+9b}{20}'],
  ['\\text{Evelyn}', 'Navin'],
  ['\\text{(C)}', 'B'],
  ['52_8', '52'],
  ['90^\\circ', '\\frac{\\pi}{2}'],
  ['1000', '1,000,001'],
  ['1,450,000', '1450001'],
  ['12345678901234567890', '12345678901234567891'],
  ['0.333333', '\\frac{1}{3}'],
  ['2', ''],
  ['\\frac{14}{3}', '4\\frac{1}{3}'],
  ['10', '\\binom{5}{3} + 1'],
  // A rounded decimal is not the exact answer, however many digits it has.
  ['\\frac{1}{3}', '0.3333333333'],
  ['\\frac{1}{3}', '0.3333333333333333'],
  ['\\frac{\\sqrt{2}}{2}', '0.7071067811865476'],
  ['\\frac{2}{3}', '0.667'],
  // A hedged value states an estimate.
  ['9', 'approximately 9'],
  ['9', 'about 9'],
  ['9', '\\approx 9'],
  // Scale words are not units to drop.
  ['1', '1 million'],
  ['1.5', '1.5 million'],
  // The usual distinctions.
  ['50\\%', '0.5'],
  ['-3', '3'],
  ['10080', '10,\\!081'],
  ['\\infty', '-\\infty'],
  ['(2,\\infty)', '(2, inf]'],
  ['(1, -2)', '(-2, 1)'],
  ['\\sqrt{8}', '2\\sqrt{3}'],
];

describe('compareMathAnswers', () => {
  test('the table is large enough', () => {
    expect(EQUIVALENT.length + NOT_EQUIVALENT.length).toBeGreaterThanOrEqual(140);
  });

  test.each(EQUIVALENT)('%s == %s', (gold, predicted) => {
    expect(compareMathAnswers(gold, predicted).correct).toBe(true);
    // Equivalence is symmetric.
    expect(compareMathAnswers(predicted, gold).correct).toBe(true);
  });

  test.each(NOT_EQUIVALENT)('%s != %s', (gold, predicted) => {
    expect(compareMathAnswers(gold, predicted).correct).toBe(false);
  });

  test('reports how it decided, with the normalised forms', () => {
    expect(compareMathAnswers('\\left( 3, \\frac{\\pi}{2} \\right)', '(3, \\frac{\\pi}{2})')).toEqual({
      correct: true,
      normalizedGold: '(3,\\frac{\\pi}{2})',
      normalizedPred: '(3,\\frac{\\pi}{2})',
      method: 'math_string',
    });
    expect(compareMathAnswers('\\frac{1}{2}', '0.5')).toEqual({ correct: true, normalizedGold: '\\frac{1}{2}', normalizedPred: '0.5', method: 'math_numeric' });
    expect(compareMathAnswers('p - q', '-q + p').method).toBe('math_symbolic');
    expect(compareMathAnswers('x^2+1', 'x^2-1')).toEqual({ correct: false, normalizedGold: 'x^2+1', normalizedPred: 'x^2-1', method: 'math_equivalence' });
  });

  test('a LaTeX command named like an Object property (\\constructor) is not understood, so strings are compared', () => {
    expect(latexToMathjs('\\constructor 2')).toBeUndefined();
    expect(latexToMathjs('\\toString{2}')).toBeUndefined();
  });

  test('never lets an answer reach mathjs functions outside arithmetic', () => {
    expect(compareMathAnswers('1', 'import({a: 1})').correct).toBe(false);
    expect(compareMathAnswers('2', 'evaluate("1+1")').correct).toBe(false);
    // `m` is a variable, not the unit metre.
    expect(compareMathAnswers('2m', 'm+m').correct).toBe(true);
  });
});
