import { describe, expect, it } from 'vitest';
import { EfficiencyMinerConfigSchema } from '../mining-config.js';
import { fixtureTask, planEpisode } from '../test-fixtures/plan-episode.js';
import { taskGroup } from '../test-fixtures/task-groups.js';
import { createEfficiencyMiner } from './efficiency-miner.js';

const task = fixtureTask('t1');

describe('efficiency miner', () => {
  it('prefers the correct episode that spent clearly fewer execution tokens', () => {
    const group = taskGroup([
      planEpisode({ id: 'cheap', task, variant: 'a', correct: true, executionTokens: 100 }),
      planEpisode({ id: 'close', task, variant: 'b', correct: true, executionTokens: 140 }),
      planEpisode({ id: 'dear', task, variant: 'c', correct: true, executionTokens: 400 }),
      planEpisode({ id: 'wrong', task, variant: 'd', correct: false, executionTokens: 10 }),
    ]);
    const pairs = createEfficiencyMiner(EfficiencyMinerConfigSchema.parse({})).mine(group);
    expect(pairs.map((pair) => `${pair.winner.id}>${pair.loser.id}`)).toEqual(['cheap>dear', 'close>dear']);
    expect(pairs[0]?.evidence).toEqual({ winnerExecutionTokens: 100, loserExecutionTokens: 400, tokenRatio: 4, minTokenRatio: 1.5 });
    expect(pairs[0]?.strength).toBeCloseTo(Math.log(4), 12);
  });

  it('uses the configured ratio and is skipped without grades', () => {
    const group = taskGroup([
      planEpisode({ id: 'cheap', task, variant: 'a', correct: true, executionTokens: 100 }),
      planEpisode({ id: 'close', task, variant: 'b', correct: true, executionTokens: 140 }),
    ]);
    expect(createEfficiencyMiner({ minTokenRatio: 1.3 }).mine(group)).toHaveLength(1);
    const labelFree = fixtureTask('t2', false);
    const miner = createEfficiencyMiner({ minTokenRatio: 1.3 });
    expect(miner.skipReason(taskGroup([planEpisode({ id: 'x', task: labelFree, variant: 'a' })]))).toMatch(/no gold answer/);
  });
});
