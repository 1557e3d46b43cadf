import { describe, expect, it } from 'vitest';
import type { Pair } from '../../core/pair.js';
import { Rng } from '../../core/rng.js';
import { formatPlanXml } from '../../plan/index.js';
import { parseBtConfig } from '../bt-config.js';
import { syntheticPairs, syntheticPlan, syntheticTask, syntheticUtility } from '../synthetic-pairs.js';
import { trainRewardModel } from '../train-reward-model.js';
import type { HeldOutEpisode } from './evaluate-model.js';
import { baselineEncoder, evaluateWithBaselines } from './evaluate-with-baselines.js';
import { formatBaselineReport } from './format-baseline-report.js';

/**
 * Held-out episodes of the synthetic world: per task, plans of random blocks, correct exactly
 * when they contain the block that helps this kind of task (so only task x plan features can
 * select among them).
 */
function heldOutEpisodes(tasks: number, plansPerTask: number, seed: number): HeldOutEpisode[] {
  const rng = new Rng(seed);
  const episodes: HeldOutEpisode[] = [];
  for (let index = 0; index < tasks; index++) {
    const task = syntheticTask(rng, 10_000 + index);
    for (let sample = 0; sample < plansPerTask; sample++) {
      const blocks = [rng.pick(['cot', 'sc', 'search', 'reflexion']), rng.pick(['sc', 'search'])];
      const correct = syntheticUtility(task.kind, blocks) > 0;
      episodes.push({ id: `${task.id}-${sample}`, taskId: task.id, question: task.question, planText: formatPlanXml(syntheticPlan(rng, blocks, 8)), correct, valid: true });
    }
  }
  return episodes;
}

const asTest = (pairs: Pair[]): Pair[] => pairs.map((pair) => ({ ...pair, id: `test-${pair.id}`, taskId: `test-${pair.taskId}`, split: 'test' }));

describe('evaluateWithBaselines', () => {
  it('trains the three baselines the same way and says which ones a model beats', { timeout: 120_000 }, async () => {
    const trainingPairs = syntheticPairs({ pairs: 1500, seed: 1, inputWords: 8 });
    const testPairs = asTest(syntheticPairs({ pairs: 300, seed: 2, inputWords: 8 }));
    const config = parseBtConfig({ encoder: 'words:1@plan,structure,task-stats,cross,bits:16', maxEpochs: 8, seed: 3, tune: false });
    const { model: full } = await trainRewardModel(trainingPairs, config, { name: 'full' });
    const { model: planOnly } = await trainRewardModel(trainingPairs, { ...config, encoder: baselineEncoder('plan-only', config.encoder) }, { name: 'plan-features-only' });
    const epochs: string[] = [];
    const report = await evaluateWithBaselines([full, planOnly], { pairs: testPairs, episodes: heldOutEpisodes(40, 8, 4) }, {
      trainingPairs,
      config,
      seed: 5,
      events: (event) => epochs.push(`${event.baseline}:${event.log.epoch}`),
    });
    expect(epochs).toContain('structure-only:1');
    expect(epochs).toContain('plan-only:1');
    expect(epochs).toContain('length-only:1');
    expect(report.baselines.map((baseline) => baseline.evaluation.model)).toStrictEqual(['structure-only-baseline', 'plan-only-baseline', 'length-only-baseline']);

    const [fullResult, planOnlyResult] = report.models;
    // The hidden rule needs the task: only the model with task x plan features gets it.
    expect(fullResult?.evaluation.pairs.accuracy.overall.accuracy).toBeGreaterThan(0.9);
    expect(fullResult?.comparisons.map((comparison) => comparison.beats)).toStrictEqual([true, true, true]);
    expect(fullResult?.beatsBaselines).toBe(true);
    const fullBestOf4 = fullResult?.evaluation.episodes.bestOfN.find((result) => result.n === 4);
    expect(fullBestOf4?.accuracy).toBeGreaterThan(fullBestOf4?.randomAccuracy ?? 1);
    expect(fullResult?.evaluation.prefix?.map((prefix) => prefix.k)).toStrictEqual([1, 2, 3, 4]);

    // Trained exactly like the plan-only baseline, it cannot beat it, and the report says so.
    const sameAsBaseline = planOnlyResult?.comparisons.find((comparison) => comparison.baseline === 'plan-only');
    expect(sameAsBaseline?.accuracyDifference).toBe(0);
    expect(sameAsBaseline?.verdict).toMatch(/^does NOT beat the plan-only \(no task features; plan text may quote the task\) baseline .*: it has learned nothing about orchestration beyond a preference among plans that ignores the task$/);
    const text = formatBaselineReport(report);
    expect(text).toMatch(/plan-features-only:\n(  - .*\n)*  - does NOT beat the plan-only/);
    expect(text).toContain('full:\n  - beats the structure-only');
  });
});
