import { describe, expect, it } from 'vitest';
import { sigmoid } from '../../core/index.js';
import { normalCdf } from './normal-cdf.js';

describe('normalCdf', () => {
  it('matches tabulated values and is symmetric', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1)).toBeCloseTo(0.8413447461, 6);
    expect(normalCdf(1.959963985)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-3)).toBeCloseTo(0.0013498980, 7);
    for (const z of [0.1, 0.7, 2.5, 6]) expect(normalCdf(z) + normalCdf(-z)).toBeCloseTo(1, 9);
    expect(sigmoid(0)).toBe(0.5);
    expect(sigmoid(Math.log(3))).toBeCloseTo(0.75, 12);
  });
});
