import { describe, expect, test } from 'vitest';
import { lastBoxed } from './last-boxed.js';
import { normalizeMathAnswer } from './normalize-math-answer.js';

describe('normalizeMathAnswer', () => {
  test.each([
    ['$\\boxed{\\dfrac12}$', '\\frac{1}{2}'],
    ['\\$1,234.50', '1234.50'],
    ['\\left( 3, \\frac{\\pi}{2} \\right)', '(3,\\frac{\\pi}{2})'],
    ['90^\\circ', '90'],
    ['90°', '90'],
    ['50\\%', '50'],
    ['864 \\mbox{ inches}^2', '864'],
    ['\\frac{270}7\\text{ degrees}', '\\frac{270}{7}'],
    ['18 dollars', '18'],
    ['x = 5', '5'],
    ['y = 2x + 3', 'y=2x+3'],
    ['x \\in [-2,7]', '[-2,7]'],
    ['\\text{(C)}', 'C'],
    ['\\text{Evelyn}', 'Evelyn'],
    ['\\cot x', '\\cot x'],
    ['11\\sqrt2', '11\\sqrt{2}'],
    ['-.5', '-0.5'],
    ['4210_{5}', '4210_5'],
    ['\\(\\frac 34\\)', '\\frac{3}{4}'],
    ['1, 234', '1,234'],
    ['12.', '12'],
    ['10,\\!080', '10080'],
    ['11,\\! 111,\\! 111,\\! 100', '11111111100'],
    ['\\$32,\\!348', '32348'],
    ['1.5 million', '1500000'],
    ['\\$2 billion dollars', '2000000000'],
    ['0.25 thousand', '250'],
    ['(-inf, 3)', '(-\\infty,3)'],
    ['\\text{infinity}', '\\infty'],
    ['The answer is 4.', '4'],
    ['Final Answer: The final answer is $12$. I hope it is correct.', '12'],
    ['approximately 9', '\\approx9'],
    ['≈ 2.5', '\\approx2.5'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeMathAnswer(input)).toBe(expected);
  });
});

describe('lastBoxed', () => {
  test('takes the last box, braces balanced, and bare boxes', () => {
    expect(lastBoxed('first \\boxed{1}, then $x = \\boxed{\\frac{1}{\\sqrt{2}}}$.')).toBe('\\frac{1}{\\sqrt{2}}');
    expect(lastBoxed('so \\boxed 5$')).toBe('5');
    expect(lastBoxed('\\fbox{7}')).toBe('7');
    expect(lastBoxed('no box here')).toBeUndefined();
    expect(lastBoxed('\\boxed{unclosed')).toBeUndefined();
  });
});
