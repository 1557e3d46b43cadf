import { describe, expect, it } from 'vitest';
import { normalizeAnswer } from './normalize-answer.js';

describe('normalizeAnswer', () => {
  it.each([
    ['  Paris ', 'paris'],
    ['Paris.', 'paris'],
    ['$18$', '18'],
    ['$$18$$', '18'],
    ['18.0', '18'],
    ['18.50', '18.5'],
    ['1,234,567', '1234567'],
    ['-1,000.00', '-1000'],
    ['-0.0', '0'],
    ['007', '7'],
    ['.5', '0.5'],
    ['\\text{Blue Whale}', 'blue whale'],
    ['$\\boxed{18.0}$.', '18'],
    ['\\textbf{\\text{yes}}', 'yes'],
    ['New   York\n City', 'new york city'],
    ['12345678901234567890.10', '12345678901234567890.1'],
    ['1,2,3', '1,2,3'],
    ['\\frac{1}{2}', '\\frac{1}{2}'],
    ['$', '$'],
    ['', ''],
  ])('%j -> %j', (input, expected) => {
    expect(normalizeAnswer(input)).toBe(expected);
  });
});
