import { describe, expect, it } from 'vitest';
import { bestOfNAccuracy, type ScoredOutcome } from './best-of-n.js';

const episode = (taskId: string, score: number, correct: boolean): ScoredOutcome => ({ taskId, score, correct });

describe('bestOfNAccuracy', () => {
  it('averages over every subset when there are few, and skips tasks with fewer than N plans', () => {
    const outcomes = [episode('t1', 3, false), episode('t1', 2, true), episode('t1', 1, true), episode('t2', 9, true)];
    // Subsets {0,1}, {0,2} pick the wrong plan 0; {1,2} picks plan 1 (right).
    const result = bestOfNAccuracy(outcomes, 2);
    expect(result).toMatchObject({ n: 2, tasks: 1, skippedTasks: 1, subsets: 3, oracleAccuracy: 1, tieRate: 0 });
    expect(result.accuracy).toBeCloseTo(1 / 3, 12);
    expect(result.randomAccuracy).toBeCloseTo(2 / 3, 12);
    expect(result.ci).toStrictEqual({ low: 1 / 3, high: 1 / 3 });
  });

  it('weighs each task the same, whatever its plan count', () => {
    const outcomes = [
      ...[5, 4, 3, 2].map((score) => episode('many', score, true)),
      episode('few', 1, false),
    ];
    const result = bestOfNAccuracy(outcomes, 1);
    expect(result).toMatchObject({ tasks: 2, subsets: 5, accuracy: 0.5 });
    // Random and oracle are averaged over subsets, not tasks.
    expect(result.randomAccuracy).toBeCloseTo(0.8, 12);
  });

  it('breaks ties by a fixed seeded order: reproducible, and credited no more often than chance', () => {
    const tied = [episode('t', 1, true), episode('t', 1, false)];
    const first = bestOfNAccuracy(tied, 2, { seed: 5 });
    expect(first.tieRate).toBe(1);
    expect(bestOfNAccuracy(tied, 2, { seed: 5 })).toStrictEqual(first);
    const picks = Array.from({ length: 40 }, (_, seed) => bestOfNAccuracy(tied, 2, { seed }).accuracy);
    expect(new Set(picks)).toStrictEqual(new Set([0, 1]));

    // A model that scores everything equal selects at chance level.
    const constant = Array.from({ length: 300 }, (_, task) => [episode(`t${task}`, 0, true), episode(`t${task}`, 0, false)]).flat();
    const result = bestOfNAccuracy(constant, 2, { seed: 1 });
    expect(result.tieRate).toBe(1);
    expect(result.randomAccuracy).toBe(0.5);
    expect(Math.abs(result.accuracy - 0.5)).toBeLessThan(0.1);
  });

  it('selects the top plan even when another was tied lower', () => {
    const outcomes = [episode('t', 2, false), episode('t', 2, false), episode('t', 7, true)];
    expect(bestOfNAccuracy(outcomes, 3)).toMatchObject({ accuracy: 1, tieRate: 0, subsets: 1 });
  });

  it('draws random subsets when there are too many, and a perfect scorer reaches the oracle', () => {
    const outcomes = Array.from({ length: 12 }, (_, index) => episode('t', index, index >= 9));
    const sampled = bestOfNAccuracy(outcomes, 8, { subsetsPerTask: 50, seed: 3 });
    expect(sampled.subsets).toBe(50);
    expect(sampled.accuracy).toBe(sampled.oracleAccuracy);
    // 3 correct of 12, N = 8: only C(9,8) = 9 of the C(12,8) = 495 subsets have none correct.
    const exact = bestOfNAccuracy(outcomes, 8, { subsetsPerTask: 1000 });
    expect(exact.subsets).toBe(495);
    expect(exact.accuracy).toBeCloseTo(1 - 9 / 495, 12);
    expect(exact.randomAccuracy).toBeCloseTo(0.25, 12);
  });

  it('refuses a non-positive N', () => {
    expect(() => bestOfNAccuracy([], 0)).toThrow(/N must be a positive integer/);
  });
});
