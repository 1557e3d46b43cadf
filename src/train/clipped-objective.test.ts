import { describe, expect, it } from 'vitest';
import { clippedSurrogate, klK3 } from './clipped-objective.js';

describe('clippedSurrogate', () => {
  it('passes ρA and its gradient inside the clip range', () => {
    const term = clippedSurrogate(Math.log(1.1), 0, 2, 0.2);
    expect(term.clipped).toBe(false);
    expect(term.value).toBeCloseTo(2.2, 12);
    expect(term.gradientScale).toBeCloseTo(2.2, 12);
  });

  it('clips a positive advantage above 1 + ε and a negative one below 1 - ε, with no gradient', () => {
    expect(clippedSurrogate(Math.log(1.5), 0, 2, 0.2)).toEqual({ value: 1.2 * 2, gradientScale: 0, clipped: true });
    const below = clippedSurrogate(Math.log(0.5), 0, -2, 0.2);
    expect(below).toEqual({ value: 0.8 * -2, gradientScale: 0, clipped: true });
  });

  it('does not clip where the unclipped term is already the pessimistic one', () => {
    // A > 0 with ρ < 1 - ε: min(0.5·2, 0.8·2) = 1 is the unclipped term, so the gradient flows.
    const low = clippedSurrogate(Math.log(0.5), 0, 2, 0.2);
    expect(low.clipped).toBe(false);
    expect(low.value).toBeCloseTo(1, 12);
    expect(low.gradientScale).toBeCloseTo(1, 12);
    // A < 0 with ρ > 1 + ε: min(-3, -2.4) = -3, unclipped.
    const high = clippedSurrogate(Math.log(1.5), 0, -2, 0.2);
    expect(high.clipped).toBe(false);
    expect(high.value).toBeCloseTo(-3, 12);
  });

  it('has a gradient equal to the finite difference in log π_θ where unclipped', () => {
    const h = 1e-6;
    const at = (logProb: number) => clippedSurrogate(logProb, -1.3, 0.7, 0.2).value;
    const numeric = (at(-1.25 + h) - at(-1.25 - h)) / (2 * h);
    expect(clippedSurrogate(-1.25, -1.3, 0.7, 0.2).gradientScale).toBeCloseTo(numeric, 6);
  });
});

describe('klK3', () => {
  it('is r - 1 - log r with r = π_ref / π_θ, zero when they agree', () => {
    expect(klK3(-0.7, -0.7)).toEqual({ value: 0, gradientScale: 0 });
    const term = klK3(Math.log(0.5), Math.log(0.25));
    expect(term.value).toBeCloseTo(0.5 - 1 + Math.log(2), 12);
    expect(term.gradientScale).toBeCloseTo(0.5, 12);
  });

  it('is never negative and its gradient matches the finite difference', () => {
    for (const [logProb, reference] of [[-2, -0.1], [-0.1, -2], [-1, -1.5]] as const) {
      expect(klK3(logProb, reference).value).toBeGreaterThanOrEqual(0);
      const h = 1e-6;
      const numeric = (klK3(logProb + h, reference).value - klK3(logProb - h, reference).value) / (2 * h);
      expect(klK3(logProb, reference).gradientScale).toBeCloseTo(numeric, 6);
    }
  });

  it('averages to KL(π_θ ‖ π_ref) over the arms of a categorical policy', () => {
    const policy = [0.6, 0.3, 0.1];
    const reference = [0.2, 0.5, 0.3];
    const exact = policy.reduce((sum, p, arm) => sum + p * Math.log(p / (reference[arm] as number)), 0);
    const expected = policy.reduce((sum, p, arm) => sum + p * klK3(Math.log(p), Math.log(reference[arm] as number)).value, 0);
    expect(expected).toBeCloseTo(exact, 12);
  });
});
