import { describe, expect, it } from 'vitest';
import { bootstrapMeanInterval, pairedClusterBootstrap } from './bootstrap-interval.js';
import { sigmoid } from '../../core/index.js';
import { expectedCalibrationError } from './calibration-error.js';
import { pairwiseAccuracy } from './pairwise-accuracy.js';
import { groupedAuc, rocAuc } from './roc-auc.js';
import { wilsonInterval } from './wilson-interval.js';

describe('wilsonInterval', () => {
  it('matches the textbook values', () => {
    const { low, high } = wilsonInterval(8, 10);
    expect(low).toBeCloseTo(0.49016, 4);
    expect(high).toBeCloseTo(0.94331, 4);
  });

  it('stays inside [0, 1] at the extremes and is uninformative without data', () => {
    expect(wilsonInterval(0, 10).low).toBe(0);
    expect(wilsonInterval(0, 10).high).toBeCloseTo(0.27753, 4);
    expect(wilsonInterval(10, 10).high).toBe(1);
    expect(wilsonInterval(10, 10).low).toBeCloseTo(0.72247, 4);
    expect(wilsonInterval(0, 0)).toStrictEqual({ low: 0, high: 1 });
  });
});

describe('pairwiseAccuracy', () => {
  it('counts strict > only: ties and NaN are wrong', () => {
    const result = pairwiseAccuracy([
      { winnerScore: 2, loserScore: 1, source: 'outcome' },
      { winnerScore: 1, loserScore: 1, source: 'outcome' },
      { winnerScore: 0, loserScore: 3, source: 'checkpoint' },
      { winnerScore: Number.NaN, loserScore: 0, source: 'checkpoint' },
      { winnerScore: 5, loserScore: -5, source: 'checkpoint' },
    ]);
    expect(result.overall).toMatchObject({ correct: 2, total: 5, ties: 1, accuracy: 0.4 });
    expect(result.overall.ci).toStrictEqual(wilsonInterval(2, 5));
    expect(Object.keys(result.perSource)).toStrictEqual(['checkpoint', 'outcome']);
    expect(result.perSource.outcome).toMatchObject({ correct: 1, total: 2, ties: 1, accuracy: 0.5 });
    expect(result.perSource.checkpoint).toMatchObject({ correct: 1, total: 3, ties: 0 });
  });

  it('gives a model that scores everything equal zero accuracy, not one half', () => {
    const pairs = Array.from({ length: 6 }, () => ({ winnerScore: 0.3, loserScore: 0.3, source: 'outcome' }));
    expect(pairwiseAccuracy(pairs).overall).toMatchObject({ correct: 0, ties: 6, accuracy: 0 });
  });

  it('reports zero pairs as accuracy 0 with the [0, 1] interval', () => {
    expect(pairwiseAccuracy([])).toStrictEqual({ overall: { correct: 0, total: 0, ties: 0, accuracy: 0, ci: { low: 0, high: 1 } }, perSource: {} });
  });
});

describe('rocAuc', () => {
  it('gives tied scores half credit (Mann-Whitney with average ranks)', () => {
    expect(rocAuc([0.9, 0.5, 0.5, 0.1], [true, true, false, false])).toBe(0.875);
    // Positives {3, 1, 1}, negatives {1, 0}: 2 + (0.5 + 1) + (0.5 + 1) = 5 of 6.
    expect(rocAuc([3, 1, 1, 1, 0], [true, true, true, false, false])).toBe(5 / 6);
  });

  it('is 0.5 for all-equal scores, 1 and 0 for perfect orderings, undefined with one class', () => {
    expect(rocAuc([2, 2, 2, 2], [true, false, true, false])).toBe(0.5);
    expect(rocAuc([4, 3, 2, 1], [true, true, false, false])).toBe(1);
    expect(rocAuc([1, 2, 3, 4], [true, true, false, false])).toBe(0);
    expect(rocAuc([1, 2], [true, true])).toBeUndefined();
    expect(rocAuc([], [])).toBeUndefined();
  });

  it('does not depend on the input order', () => {
    expect(rocAuc([0.1, 0.5, 0.9, 0.5], [false, false, true, true])).toBe(0.875);
  });
});

describe('groupedAuc', () => {
  it('compares plans of the same group only', () => {
    // Pooled, the hard task's high scores would dominate; within tasks one is right, one wrong.
    expect(groupedAuc([1, 0, 5, 9], [true, false, true, false], ['a', 'a', 'b', 'b'])).toBe(0.5);
    expect(rocAuc([1, 0, 5, 9], [true, false, true, false])).toBe(0.5);
    expect(groupedAuc([1, 0, 9, 5], [true, false, true, false], ['a', 'a', 'b', 'b'])).toBe(1);
    expect(rocAuc([1, 0, 9, 5], [true, false, true, false])).toBe(0.75);
  });

  it('weights groups by their comparisons and skips one-class groups', () => {
    // Group a: 2 positives x 1 negative, both right (2/2); group b: 1 x 1 tied (0.5/1); c has one class.
    const auc = groupedAuc([3, 2, 1, 4, 4, 7], [true, true, false, true, false, true], ['a', 'a', 'a', 'b', 'b', 'c']);
    expect(auc).toBe(2.5 / 3);
    expect(groupedAuc([1, 2], [true, true], ['a', 'b'])).toBeUndefined();
  });
});

describe('expectedCalibrationError', () => {
  const ln3 = Math.log(3);

  it('counts each pair in both orientations, so ties are perfectly calibrated', () => {
    const report = expectedCalibrationError([0, 1], [0, 1]);
    expect(report.ece).toBe(0);
    expect(report.bins[5]).toStrictEqual({ low: 0.5, high: 0.6, count: 4, meanConfidence: 0.5, accuracy: 0.5 });
    expect(report.bins.filter((bin) => bin.count > 0)).toHaveLength(1);
  });

  it('is |accuracy - confidence| weighted by bin size', () => {
    // Always right with p = 0.75: underconfident by 0.25 in both mirrored bins.
    expect(expectedCalibrationError([ln3], [0]).ece).toBeCloseTo(0.25, 12);
    // Right 3 times of 4 with p = 0.75: calibrated.
    expect(expectedCalibrationError([ln3, ln3, ln3, 0], [0, 0, 0, ln3]).ece).toBeCloseTo(0, 12);
    // Right once, wrong once, both at 0.75 confidence: bins 2 and 7 hold accuracy 0.5 at confidence 0.25 / 0.75.
    const mixed = expectedCalibrationError([ln3, 0], [0, ln3]);
    expect(mixed.ece).toBeCloseTo(0.25, 12);
    expect(mixed.bins[7]).toMatchObject({ count: 2, accuracy: 0.5 });
    expect(mixed.bins[7]?.meanConfidence).toBeCloseTo(0.75, 12);
    expect(mixed.bins[2]?.meanConfidence).toBeCloseTo(0.25, 12);
  });

  it('puts probability 1 in the last bin and supports other bin counts', () => {
    const report = expectedCalibrationError([1000], [0], { bins: 4 });
    expect(report.bins).toHaveLength(4);
    expect(report.bins[3]).toMatchObject({ count: 1, accuracy: 1, meanConfidence: 1 });
    expect(report.bins[0]).toMatchObject({ count: 1, accuracy: 0, meanConfidence: 0 });
    expect(report.ece).toBe(0);
    expect(() => expectedCalibrationError([], [], { bins: 0 })).toThrow(/bins must be a positive integer/);
  });

  it('has a sigmoid that neither overflows nor underflows to a wrong side', () => {
    expect(sigmoid(0)).toBe(0.5);
    expect(sigmoid(-1000)).toBe(0);
    expect(sigmoid(1000)).toBe(1);
    expect(sigmoid(-ln3)).toBeCloseTo(0.25, 15);
  });
});

describe('bootstrap intervals', () => {
  it('is reproducible under a seed and brackets the mean', () => {
    const values = [0, 1, 1, 1, 0, 1, 1, 0];
    const interval = bootstrapMeanInterval(values, { seed: 7 });
    expect(bootstrapMeanInterval(values, { seed: 7 })).toStrictEqual(interval);
    expect(interval.low).toBeLessThan(0.625);
    expect(interval.high).toBeGreaterThan(0.625);
    expect(bootstrapMeanInterval([0.4])).toStrictEqual({ low: 0.4, high: 0.4 });
    expect(bootstrapMeanInterval([])).toStrictEqual({ low: 0, high: 0 });
  });

  it('resamples clusters for paired differences', () => {
    const same = pairedClusterBootstrap([1, 0, 1], [1, 0, 1], ['a', 'b', 'c']);
    expect(same).toStrictEqual({ difference: 0, ci: { low: 0, high: 0 } });
    // Every cluster favours a by exactly 1/2: every resample says 1/2 too.
    const better = pairedClusterBootstrap([1, 1, 1, 1], [1, 0, 0, 1], ['a', 'a', 'b', 'b'], { seed: 2 });
    expect(better).toStrictEqual({ difference: 0.5, ci: { low: 0.5, high: 0.5 } });
    const mixed = pairedClusterBootstrap([1, 0, 1, 0], [0, 1, 0, 0], ['a', 'b', 'c', 'd'], { seed: 2 });
    expect(mixed.difference).toBe(0.25);
    expect(mixed.ci.low).toBeLessThan(0);
    expect(mixed.ci.high).toBeGreaterThan(0.25);
  });
});
