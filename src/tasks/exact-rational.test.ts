import { parse } from 'mathjs';
import { describe, expect, test } from 'vitest';
import { decimalRational, exactRational } from './exact-rational.js';

const value = (text: string) => {
  const found = exactRational(parse(text));
  return found === undefined ? undefined : `${found.numerator}/${found.denominator}`;
};

describe('exact rationals', () => {
  test('decimal literals keep exactly what was written', () => {
    expect(decimalRational('0.3333333333')).toEqual({ numerator: 3333333333n, denominator: 10000000000n });
    expect(decimalRational('-1.50')).toEqual({ numerator: -3n, denominator: 2n });
    expect(decimalRational('2.5e3')).toEqual({ numerator: 2500n, denominator: 1n });
    expect(decimalRational('1/2')).toBeUndefined();
  });

  test('rational arithmetic is exact; anything else has no exact value', () => {
    expect(value('1/3 + 1/6')).toBe('1/2');
    expect(value('-(2/3)^2')).toBe('-4/9');
    expect(value('2^-3')).toBe('1/8');
    expect(value('0.1 + 0.2')).toBe('3/10');
    expect(value('1/0')).toBeUndefined();
    expect(value('sqrt(4)')).toBeUndefined();
    expect(value('pi')).toBeUndefined();
    expect(value('x + 1')).toBeUndefined();
    expect(value('2^100')).toBeUndefined();
  });
});
