import { describe, expect, it } from 'vitest';
import type { Pair } from '../../core/pair.js';
import type { Plan } from '../../core/plan.js';
import type { RewardModel } from '../../core/reward-model.js';
import { evaluateAgainstBaselines } from './evaluate-against-baselines.js';
import { evaluateRewardModel, supportsPrefixes, type HeldOutEpisode } from './evaluate-model.js';
import { formatBaselineReport } from './format-baseline-report.js';

/** A reward model that reads a score off the plan text ("plan-7" scores 7) and counts its calls. */
function textModel(name: string, scoreOf: (planText: string) => number): RewardModel & { calls: string[] } {
  const calls: string[] = [];
  return {
    name,
    calls,
    async score(task: string, plans: readonly (string | Plan)[]) {
      calls.push(task);
      return plans.map((plan) => scoreOf(typeof plan === 'string' ? plan : JSON.stringify(plan)));
    },
  };
}
const numberIn = (planText: string) => Number(/\d+/.exec(planText)?.[0] ?? 0);

function pair(taskId: string, winner: string, loser: string, source = 'outcome'): Pair {
  return { id: `${taskId}-${winner}-${loser}`, datasetId: 'd', taskId, question: `question ${taskId}`, winner: { planText: winner }, loser: { planText: loser }, source, weight: 1, evidence: {}, split: 'test' };
}
function episode(taskId: string, planText: string, correct: boolean, valid = true): HeldOutEpisode {
  return { id: `${taskId}:${planText}`, taskId, question: `question ${taskId}`, planText, correct, valid };
}

const PAIRS = [pair('t1', 'plan-3', 'plan-1'), pair('t1', 'plan-2', 'plan-2b'), pair('t2', 'plan-0', 'plan-5', 'checkpoint')];
const EPISODES = [episode('t1', 'plan-3', true), episode('t1', 'plan-1', false), episode('t2', 'plan-5', false), episode('t2', 'plan-0', true)];

describe('evaluateRewardModel', () => {
  it('scores each task once and computes every metric from the scores', async () => {
    const model = textModel('numbers', numberIn);
    const evaluation = await evaluateRewardModel(model, { pairs: PAIRS, episodes: EPISODES }, { bestOfN: [1, 2] });
    // Pairs of t1, t2, then episodes of t1, t2: one call per task text per pass.
    expect(model.calls).toStrictEqual(['question t1', 'question t2', 'question t1', 'question t2']);
    expect(evaluation.model).toBe('numbers');
    // plan-3 > plan-1 right; plan-2 vs plan-2b tie (2 = 2) wrong; plan-0 < plan-5 wrong.
    expect(evaluation.pairs.accuracy.overall).toMatchObject({ correct: 1, total: 3, ties: 1 });
    expect(evaluation.pairs.accuracy.perSource.checkpoint).toMatchObject({ correct: 0, total: 1 });
    expect(evaluation.pairs.count).toBe(3);
    expect(evaluation.pairs.calibration.bins).toHaveLength(10);
    // Pooled, positives {3, 0} vs negatives {1, 5}: only 3 > 1 of four comparisons; within tasks t1 right, t2 wrong.
    expect(evaluation.episodes).toMatchObject({ count: 4, tasks: 2, correctRate: 0.5, auc: 0.25, withinTaskAuc: 0.5 });
    // Outcome pairs: t1 plan-3 over plan-1 (right), t2 plan-0 over plan-5 (wrong); every plan valid.
    expect(evaluation.episodes.outcomePairs).toMatchObject({ validVsValid: { correct: 1, total: 2 }, validVsInvalid: { total: 0 }, validWithinTaskAuc: 0.5 });
    // N = 2: t1 picks plan-3 (right), t2 picks plan-5 (wrong).
    expect(evaluation.episodes.bestOfN.map((result) => [result.n, result.accuracy, result.randomAccuracy, result.oracleAccuracy])).toStrictEqual([
      [1, 0.5, 0.5, 0.5],
      [2, 0.5, 0.5, 1],
    ]);
    expect(evaluation.prefix).toBeUndefined();
  });

  it('reports prefix predictiveness by k for a model that scores prefixes', async () => {
    const base = textModel('prefixes', numberIn);
    const model = {
      ...base,
      // The first node alone says nothing (all equal); two nodes already separate right from wrong.
      scorePrefix: async (_task: string, plan: string | Plan, k: number) => (k === 1 ? 0 : numberIn(String(plan)) % 2 === 1 ? -1 : 1),
    };
    expect(supportsPrefixes(model)).toBe(true);
    const evaluation = await evaluateRewardModel(model, { pairs: [], episodes: EPISODES }, { prefixLengths: [1, 2] });
    expect(evaluation.prefix).toStrictEqual([
      { k: 1, auc: 0.5, withinTaskAuc: 0.5 },
      // Odd plans score -1: t1 ties (plan-3 right, plan-1 wrong), t2 is ordered rightly (plan-0 right).
      { k: 2, auc: 0.75, withinTaskAuc: 0.75 },
    ]);
  });

  it('refuses a non-finite score instead of counting it as a loss', async () => {
    const model = textModel('broken', () => Number.NaN);
    await expect(evaluateRewardModel(model, { pairs: PAIRS, episodes: [] })).rejects.toThrow(/reward model broken returned a non-finite score \(NaN\)/);
  });

  it('gives null AUCs, empty Best-of-N and zero counts on empty data', async () => {
    const evaluation = await evaluateRewardModel(textModel('empty', numberIn), { pairs: [], episodes: [] });
    expect(evaluation.episodes).toMatchObject({ count: 0, tasks: 0, auc: null, withinTaskAuc: null });
    expect(evaluation.episodes.bestOfN.map((result) => result.tasks)).toStrictEqual([0, 0, 0]);
    expect(evaluation.pairs.calibration.ece).toBe(0);
  });
});

describe('evaluateAgainstBaselines', () => {
  // 40 tasks, each with a right and a wrong plan; the winner's number is higher.
  const pairs = Array.from({ length: 40 }, (_, task) => pair(`t${task}`, `plan-${task + 10}`, `plan-${task}`));
  const episodes = pairs.flatMap((item) => [episode(item.taskId, item.winner.planText, true), episode(item.taskId, item.loser.planText, false)]);

  it('says the model beats a baseline only when the paired interval is above zero', async () => {
    const report = await evaluateAgainstBaselines(
      [textModel('good', numberIn)],
      [
        { kind: 'plan-only', model: textModel('constant', () => 1) },
        { kind: 'length-only', model: textModel('coin', (text) => (numberIn(text) % 2 === 0 ? numberIn(text) : -numberIn(text))) },
      ],
      { pairs, episodes },
      { seed: 4, bestOfN: [2] },
    );
    expect(report.data).toStrictEqual({ pairs: 40, episodes: 80, tasks: 40 });
    expect(report.models[0]?.evaluation.pairs.accuracy.overall.accuracy).toBe(1);
    expect(report.baselines.map((baseline) => [baseline.kind, baseline.evaluation.model])).toStrictEqual([
      ['plan-only', 'constant'],
      ['length-only', 'coin'],
    ]);
    const [planOnly, lengthOnly] = report.models[0]?.comparisons ?? [];
    expect(planOnly).toMatchObject({ baseline: 'plan-only', accuracyDifference: 1, beats: true });
    expect(planOnly?.verdict).toBe('beats the plan-only (no task features; plan text may quote the task) baseline (+100.0 points of pairwise accuracy on 40 valid-vs-valid outcome pairs, 95% CI [+100.0, +100.0])');
    expect(planOnly).toMatchObject({ measuredOn: 'valid-vs-valid outcome pairs', heldOutPairs: { pairs: 40, difference: 1 } });
    expect(planOnly?.bestOfNDifference[0]?.n).toBe(2);
    expect(lengthOnly?.beats).toBe(true);
    expect(report.models[0]?.beatsBaselines).toBe(true);
  });

  it('says plainly when the model has learned nothing beyond a baseline', async () => {
    const report = await evaluateAgainstBaselines([textModel('same', numberIn), textModel('better', numberIn)], [{ kind: 'length-only', model: textModel('length', numberIn) }], { pairs, episodes }, { bestOfN: [2] });
    expect(report.models.map((model) => model.evaluation.model)).toStrictEqual(['same', 'better']);
    const comparison = report.models[0]?.comparisons[0];
    expect(comparison).toMatchObject({ accuracyDifference: 0, beats: false, bestOfNDifference: [{ n: 2, difference: 0 }] });
    expect(comparison?.verdict).toBe(
      'does NOT beat the length-only (plan length and node count) baseline (0.0 points of pairwise accuracy on 40 valid-vs-valid outcome pairs, 95% CI [0.0, 0.0]): it has learned nothing about orchestration beyond plan length and node count',
    );
    expect(report.models[0]?.beatsBaselines).toBe(false);

    const empty = await evaluateAgainstBaselines([textModel('same', numberIn)], [{ kind: 'plan-only', model: textModel('p', numberIn) }], { pairs: [], episodes: [] });
    expect(empty.models[0]?.comparisons[0]?.verdict).toBe('cannot be compared with the plan-only (no task features; plan text may quote the task) baseline: there are no held-out pairs');
    // Without graded episodes the verdict falls back to the held-out mined pairs.
    const pairsOnly = await evaluateAgainstBaselines([textModel('same', numberIn)], [{ kind: 'length-only', model: textModel('p', () => 0) }], { pairs, episodes: [] });
    expect(pairsOnly.models[0]?.comparisons[0]).toMatchObject({ measuredOn: 'held-out pairs', accuracyDifference: 1, beats: true });
  });
});

describe('outcome pairs', () => {
  it('splits correct-over-incorrect pairs into valid-vs-valid and valid-vs-invalid', async () => {
    const episodes = [episode('t1', 'plan-3', true), episode('t1', 'plan-1', false), episode('t1', 'plan-9', false, false), episode('t1', 'plan-2', true, false)];
    const evaluation = await evaluateRewardModel(textModel('numbers', numberIn), { pairs: [], episodes }, { bestOfN: [2] });
    // plan-3 beats plan-1 (valid) and plan-9 (invalid, scored higher: wrong); plan-2 is an invalid "correct" plan and wins no pair.
    expect(evaluation.episodes.outcomePairs.validVsValid).toMatchObject({ correct: 1, total: 1 });
    expect(evaluation.episodes.outcomePairs.validVsInvalid).toMatchObject({ correct: 0, total: 1 });
  });
});

describe('formatBaselineReport', () => {
  it('prints one column per model and baseline, the references and the verdicts', async () => {
    const pairs = [pair('t1', 'plan-3', 'plan-1'), pair('t2', 'plan-0', 'plan-5', 'checkpoint')];
    const report = await evaluateAgainstBaselines([textModel('linear', numberIn)], [{ kind: 'length-only', model: textModel('length', () => 0) }], { pairs, episodes: EPISODES }, { bestOfN: [2] });
    const text = formatBaselineReport(report);
    expect(text).toContain('held-out (test-split tasks only): 2 pairs, 4 graded episodes, 2 tasks');
    expect(text).toMatch(/ {30} +linear +length-only baseline\n/);
    expect(text).toMatch(/pairwise accuracy \(n=2\) +50\.0% \[9\.5, 90\.5\] +0\.0% \[0\.0, 65\.8\]\n/);
    expect(text).toMatch(/ {2}checkpoint \(n=1\) +0\.0% \[0\.0, 79\.3\] +0\.0% \[0\.0, 79\.3\]\n/);
    expect(text).toMatch(/ {2}tied pairs +0 +2\n/);
    expect(text).toMatch(/Best-of-2 \(2 tasks\) +50\.0% \[0\.0, 100\.0\] +/);
    expect(text).toMatch(/AUC, within task +0\.500 +0\.500\n/);
    expect(text).toContain('Best-of-N references (any model): N=2: random 50.0%, oracle 100.0%');
    expect(text).toContain('linear:\n  - does NOT beat the length-only (plan length and node count) baseline (+50.0 points');
  });
});
