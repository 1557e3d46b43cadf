import { describe, expect, it } from 'vitest';
import { defaultBlockCatalog, parsePlan } from '../plan/index.js';
import { syntheticPairs } from './synthetic-pairs.js';
import { trainRewardModel } from './train-reward-model.js';

const pairs = syntheticPairs({ pairs: 300, seed: 12 });
const trained = trainRewardModel(pairs, { maxEpochs: 8, learningRate: 0.05, encoder: 'words:1-2,structure,task-stats,cross,bits:14' });

describe('TrainedRewardModel', () => {
  it('scores plan texts and parsed plans alike, and invalid plans too', async () => {
    const { model } = await trained;
    const pair = pairs.find((candidate) => parsePlan(candidate.winner.planText).ok)!;
    const result = parsePlan(pair.winner.planText, { catalog: defaultBlockCatalog() });
    if (!result.ok) throw new Error('expected a valid plan');
    const [fromText, fromPlan, invalid] = await model.score(pair.question, [pair.winner.planText, result.plan, 'no plan here']);
    expect(fromPlan).toBe(fromText);
    expect(Number.isFinite(invalid)).toBe(true);
    expect(invalid).toBeLessThan(fromText!);
  });

  it('ranks held-out winners above losers', async () => {
    const { model } = await trained;
    const validation = pairs.filter((pair) => pair.split === 'validation');
    let correct = 0;
    for (const pair of validation) {
      const [winner, loser] = await model.score(pair.question, [pair.winner.planText, pair.loser.planText]);
      if (winner! > loser!) correct++;
    }
    expect(correct / validation.length).toBeGreaterThan(0.9);
  });

  it('scores prefixes: the full length equals the plan score, shorter prefixes differ', async () => {
    const { model } = await trained;
    const pair = pairs.find((candidate) => (candidate.winner.planText.match(/<agent>/g) ?? []).length >= 3)!;
    const [full] = await model.score(pair.question, [pair.winner.planText]);
    expect(await model.scorePrefix(pair.question, pair.winner.planText, 99)).toBe(full);
    const prefixes = await Promise.all([0, 1, 2].map((k) => model.scorePrefix(pair.question, pair.winner.planText, k)));
    expect(new Set([...prefixes, full]).size).toBe(4);
  });
});
