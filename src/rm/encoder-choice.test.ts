import { describe, expect, it } from 'vitest';
import { type Pair, Rng } from '../core/index.js';
import { formatPlanXml } from '../plan/index.js';
import { syntheticPlan, syntheticTask } from './synthetic-pairs.js';
import { trainRewardModel, type EncoderChoice } from './train-reward-model.js';

/**
 * Outcome pairs of a world where the right plan depends on the task: self-consistency wins on
 * arithmetic, search on lookups. A task-blind encoder (`length`) cannot rank them; `shape` can.
 * Test-split pairs are inverted (the loser wins), so a choice that read them would keep `length`.
 */
function taskDependentPairs(tasks: number): Pair[] {
  const rng = new Rng(3);
  const pairs: Pair[] = [];
  for (let index = 0; index < tasks; index++) {
    const task = syntheticTask(rng, index, 30);
    const split = index % 5 === 0 ? 'validation' : index % 5 === 1 ? 'test' : 'train';
    const [good, bad] = task.kind === 'arithmetic' ? ['sc', 'search'] : ['search', 'sc'];
    const winner = formatPlanXml(syntheticPlan(rng, [good!], 12));
    const loser = formatPlanXml(syntheticPlan(rng, [bad!], 12));
    const inverted = split === 'test';
    pairs.push({
      id: `pair-${index}`,
      datasetId: 'ds',
      taskId: task.id,
      question: task.question,
      winner: { planText: inverted ? loser : winner },
      loser: { planText: inverted ? winner : loser },
      source: 'outcome',
      weight: 1,
      evidence: {},
      split,
    });
  }
  return pairs;
}

describe('trainRewardModel with encoderCandidates', () => {
  it('keeps the encoder that ranks the validation valid-vs-valid outcome pairs best, and records every candidate', async () => {
    const pairs = taskDependentPairs(300);
    const { model, config, encoderChoice } = await trainRewardModel(pairs, { encoder: 'length', encoderCandidates: ['length', 'shape'], maxEpochs: 6, ensembleSize: 1, seed: 1 });
    expect(encoderChoice?.by).toBe('validation valid-vs-valid accuracy');
    expect(encoderChoice?.validVsValidPairs).toBe(60);
    expect(encoderChoice?.candidates.map((candidate) => candidate.encoder)).toEqual(['length,bits:18', 'shape,bits:18']);
    expect(encoderChoice?.chosen).toBe('shape,bits:18');
    const [length, shape] = encoderChoice!.candidates;
    expect(shape!.validVsValidAccuracy!).toBeGreaterThan(0.9);
    expect(length!.validVsValidAccuracy!).toBeLessThan(0.7);
    expect(config.encoder.features.map((feature) => feature.kind)).toEqual(['shape']);
    expect(model.pipeline.spec.features.map((feature) => feature.kind)).toEqual(['shape']);
    expect((model.provenance.metrics?.encoderChoice as EncoderChoice).chosen).toBe('shape,bits:18');
    expect(model.ensemble).toHaveLength(1);
    model.close();
  });

  it('chooses by validation loss on a dataset without outcome pairs (a label-free one)', async () => {
    const pairs = taskDependentPairs(200).map((pair) => ({ ...pair, source: 'process' }));
    const { encoderChoice, model } = await trainRewardModel(pairs, { encoderCandidates: ['length', 'shape'], maxEpochs: 4, ensembleSize: 0, tune: false, seed: 1 });
    expect(encoderChoice?.by).toMatch(/^validation loss/);
    expect(encoderChoice?.validVsValidPairs).toBe(0);
    const [length, shape] = encoderChoice!.candidates;
    expect(encoderChoice?.chosen).toBe(shape!.validationLoss < length!.validationLoss ? 'shape,bits:18' : 'length,bits:18');
    expect(shape!.validVsValidAccuracy).toBeNull();
    model.close();
  });
});
