import { describe, expect, test } from 'vitest';
import { compareMathAnswers } from './math-grader.js';

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
  ['0.3333333333333333', '\\frac{1}{3}'],
  ['2\\sqrt{5}', '\\sqrt{20}'],
  ['\\frac{\\pi^2}{8}', '\\pi^2/8'],
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
];

describe('compareMathAnswers', () => {
  test('the table is large enough', () => {
    expect(EQUIVALENT.length + NOT_EQUIVALENT.length).toBeGreaterThanOrEqual(60);
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

  test('never lets an answer reach mathjs functions outside arithmetic', () => {
    expect(compareMathAnswers('1', 'import({a: 1})').correct).toBe(false);
    expect(compareMathAnswers('2', 'evaluate("1+1")').correct).toBe(false);
    // `m` is a variable, not the unit metre.
    expect(compareMathAnswers('2m', 'm+m').correct).toBe(true);
  });
});
