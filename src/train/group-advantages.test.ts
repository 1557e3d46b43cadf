import { describe, expect, it } from 'vitest';
import { groupAdvantages } from './group-advantages.js';

describe('groupAdvantages', () => {
  it('centres each group on its own mean', () => {
    expect(Array.from(groupAdvantages([1, 0, 0, 0, 0.5, 0.5, 1.5, 1.5], 4, { scaleRewards: false, stdEpsilon: 1e-4 }))).toEqual([0.75, -0.25, -0.25, -0.25, -0.5, -0.5, 0.5, 0.5]);
  });

  it('divides by the unbiased group standard deviation plus epsilon', () => {
    // Group [1, 0]: mean 0.5, unbiased std sqrt(0.5) = 0.70710678...
    const advantages = groupAdvantages([1, 0, 3, 3], 2, { scaleRewards: true, stdEpsilon: 1e-4 });
    expect(advantages[0]).toBeCloseTo(0.5 / (Math.SQRT1_2 + 1e-4), 12);
    expect(advantages[1]).toBeCloseTo(-0.5 / (Math.SQRT1_2 + 1e-4), 12);
    // A flat group carries no signal, whatever epsilon.
    expect([advantages[2], advantages[3]]).toEqual([0, 0]);
  });

  it('matches a hand computation for G = 4', () => {
    // [2, 4, 4, 6]: mean 4, squares 8, unbiased variance 8/3.
    const std = Math.sqrt(8 / 3);
    expect(Array.from(groupAdvantages([2, 4, 4, 6], 4, { scaleRewards: true, stdEpsilon: 0.01 }))).toEqual([-2 / (std + 0.01), 0, 0, 2 / (std + 0.01)]);
  });

  it('refuses rewards that do not split into groups', () => {
    expect(() => groupAdvantages([1, 2, 3], 2, { scaleRewards: true, stdEpsilon: 1e-4 })).toThrow('3 rewards do not split into groups of 2');
  });
});
