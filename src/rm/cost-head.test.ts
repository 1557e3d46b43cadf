import { describe, expect, it } from 'vitest';
import { Rng, sigmoid } from '../core/index.js';
import { calibratedProbability, fitPlatt } from './calibration.js';
import type { PlanOutcome } from './cost-head.js';
import { probabilityCalibrationError } from './eval/calibration-error.js';
import { syntheticPairs } from './synthetic-pairs.js';
import { trainRewardModel } from './train-reward-model.js';

// Every fifth task is held out, so the test can show that test-split outcomes are never read.
const pairs = syntheticPairs({ pairs: 240, seed: 4 }).map((pair) => (Number(pair.taskId.slice('task-'.length)) % 5 === 0 ? { ...pair, split: 'test' as const } : pair));
const nodesOf = (planText: string) => planText.split('<agent_name>').length - 1;

/** The pairs' plans as executed plans: 1,000 tokens per node, winners correct and losers not. */
function outcomesOf(extra: Partial<PlanOutcome> = {}): PlanOutcome[] {
  return pairs.flatMap((pair) =>
    [pair.winner, pair.loser].map((side, position) => ({
      taskId: pair.taskId,
      question: pair.question,
      planText: side.planText,
      executionTokens: 1000 * nodesOf(side.planText),
      correct: position === 0,
      split: pair.split ?? 'train',
      ...extra,
    })),
  );
}

describe('fitPlatt', () => {
  it('recovers the slope and intercept that generated the outcomes', () => {
    const rng = new Rng(3);
    const scores: number[] = [];
    const outcomes: boolean[] = [];
    for (let index = 0; index < 20_000; index++) {
      const score = rng.next() * 6 - 3;
      scores.push(score);
      outcomes.push(rng.next() < sigmoid(1.5 * score - 0.5));
    }
    const { slope, intercept } = fitPlatt(scores, outcomes);
    expect(slope).toBeCloseTo(1.5, 1);
    expect(intercept).toBeCloseTo(-0.5, 1);
    const probabilities = scores.map((score) => calibratedProbability({ slope, intercept }, score));
    expect(probabilityCalibrationError(probabilities, outcomes).ece).toBeLessThan(0.02);
  });

  it('stays finite on separable outcomes (smoothed targets)', () => {
    const { slope, intercept } = fitPlatt([-2, -1, 1, 2], [false, false, true, true]);
    expect(Number.isFinite(slope) && Number.isFinite(intercept)).toBe(true);
    expect(slope).toBeGreaterThan(0);
  });
});

describe('probabilityCalibrationError', () => {
  it('weighs each bin by its share of predictions', () => {
    // Bin [0.2, 0.3): 2 predictions at 0.25, 1 came true (|0.5 - 0.25| = 0.25); bin [0.9, 1]: 2 at 0.95, both true (0.05).
    const report = probabilityCalibrationError([0.25, 0.25, 0.95, 0.95], [true, false, true, true]);
    expect(report.ece).toBeCloseTo(0.5 * 0.25 + 0.5 * 0.05, 12);
    expect(report.bins[2]).toMatchObject({ count: 2, accuracy: 0.5 });
  });
});

describe('the cost head and the calibration', () => {
  it('predict execution tokens and success probabilities from the plan outcomes, reading no test-split outcome', async () => {
    const config = { maxEpochs: 5, ensembleSize: 0, seed: 2, tune: false as const };
    const { model } = await trainRewardModel(pairs, config, { planOutcomes: outcomesOf() });
    expect(model.canEstimate).toBe(true);
    const cost = model.provenance.metrics?.cost as { validation: { meanAbsoluteError: number; meanTokens: number } };
    // Tokens are a function of the node count, which the shape features read (in buckets: 3-4, 5-8 nodes):
    // the head errs far less than the best constant, the train split's median.
    const tokensOf = (split: string) => outcomesOf().filter((outcome) => outcome.split === split).map((outcome) => outcome.executionTokens);
    const sorted = tokensOf('train').sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const validation = tokensOf('validation');
    const constantError = validation.reduce((sum, tokens) => sum + Math.abs(tokens - median), 0) / validation.length;
    expect(cost.validation.meanAbsoluteError).toBeLessThan(0.6 * constantError);
    expect(cost.validation.meanAbsoluteError / cost.validation.meanTokens).toBeLessThan(0.25);
    const calibration = model.provenance.metrics?.calibration as { slope: number; train: { ece: number; examples: number } };
    expect(calibration.slope).toBeGreaterThan(0);
    expect(calibration.train.ece).toBeGreaterThanOrEqual(0);
    expect(calibration.train.ece).toBeLessThan(0.2);

    const pair = pairs.find((entry) => entry.split === 'test')!;
    const [winner, loser, invalid] = await model.estimate(pair.question, [pair.winner.planText, pair.loser.planText, 'not a plan']);
    expect(winner!.executionTokens).toBeGreaterThan(0.5 * 1000 * nodesOf(pair.winner.planText));
    expect(winner!.executionTokens).toBeLessThan(1.5 * 1000 * nodesOf(pair.winner.planText));
    expect(loser!.successProbability).toBeGreaterThan(0);
    expect(loser!.successProbability).toBeLessThan(1);
    expect(invalid!.executionTokens).toBe(0);

    // Test-split outcomes with absurd token counts change nothing: they are never read.
    const absurd = outcomesOf().map((outcome) => (outcome.split === 'test' ? { ...outcome, executionTokens: 1e9, correct: !outcome.correct } : outcome));
    const again = (await trainRewardModel(pairs, config, { planOutcomes: absurd })).model;
    expect(await again.estimate(pair.question, [pair.winner.planText])).toEqual(await model.estimate(pair.question, [pair.winner.planText]));
    model.close();
    again.close();
  });

  it('gives a cost head but no calibration when no outcome is graded (label-free)', async () => {
    const ungraded = outcomesOf().map(({ correct: _correct, ...outcome }) => outcome);
    const { model } = await trainRewardModel(pairs, { maxEpochs: 2, ensembleSize: 0, tune: false }, { planOutcomes: ungraded });
    expect(model.costHead).toBeDefined();
    expect(model.calibration).toBeUndefined();
    expect(model.canEstimate).toBe(false);
    model.close();
  });
});
