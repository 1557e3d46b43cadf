import { describe, expect, it } from 'vitest';
import { CheckpointMinerConfigSchema } from '../mining-config.js';
import { fixtureTask, planEpisode } from '../test-fixtures/plan-episode.js';
import { taskGroup } from '../test-fixtures/task-groups.js';
import { createCheckpointMiner } from './checkpoint-miner.js';
import { compareCheckpoints } from './compare-checkpoints.js';

const defaults = CheckpointMinerConfigSchema.parse({});
const task = fixtureTask('t1');

describe('compareCheckpoints', () => {
  it('orders by step, then by the configured order, then base before the rest', () => {
    const config = { ...defaults, order: ['sft', 'rl'] };
    expect(compareCheckpoints({ name: 'o', checkpoint: 'x', step: 10 }, { name: 'o', checkpoint: 'y', step: 3 }, config)).toEqual({ later: 'first', decidedBy: 'step' });
    expect(compareCheckpoints({ name: 'o', checkpoint: 'rl' }, { name: 'o', checkpoint: 'sft' }, config)).toEqual({ later: 'first', decidedBy: 'order' });
    expect(compareCheckpoints({ name: 'o', checkpoint: 'base' }, { name: 'o', checkpoint: 'strong' }, config)).toEqual({ later: 'second', decidedBy: 'base' });
  });

  it('cannot order different orchestrators, equal checkpoints, or two unknown names', () => {
    expect(compareCheckpoints({ name: 'a', checkpoint: 'base' }, { name: 'b', checkpoint: 'rl' }, defaults)).toBeUndefined();
    expect(compareCheckpoints({ name: 'a', checkpoint: 'rl', step: 4 }, { name: 'a', checkpoint: 'rl', step: 4 }, defaults)).toBeUndefined();
    expect(compareCheckpoints({ name: 'a', checkpoint: 'x' }, { name: 'a', checkpoint: 'y' }, defaults)).toBeUndefined();
    expect(compareCheckpoints({ name: 'a' }, { name: 'a', checkpoint: 'y' }, defaults)).toBeUndefined();
  });
});

describe('checkpoint miner', () => {
  const base = { name: 'sim', checkpoint: 'base' };
  const strong = { name: 'sim', checkpoint: 'strong' };

  it('prefers the later checkpoint always (default, label-free), or unless its outcome is worse', () => {
    const group = taskGroup([
      planEpisode({ id: 'b-right', task, variant: 'a', correct: true, orchestrator: base }),
      planEpisode({ id: 'b-wrong', task, variant: 'b', correct: false, orchestrator: base }),
      planEpisode({ id: 's-right', task, variant: 'c', correct: true, orchestrator: strong }),
      planEpisode({ id: 's-wrong', task, variant: 'd', correct: false, orchestrator: strong }),
    ]);
    expect(defaults.mode).toBe('unconditional');
    expect(createCheckpointMiner(defaults).mine(group).map((pair) => `${pair.winner.id}>${pair.loser.id}`)).toEqual(['s-right>b-right', 's-wrong>b-right', 's-right>b-wrong', 's-wrong>b-wrong']);
    const pairs = createCheckpointMiner({ ...defaults, mode: 'outcome-at-least-as-good' }).mine(group);
    expect(pairs.map((pair) => `${pair.winner.id}>${pair.loser.id}`)).toEqual(['s-right>b-right', 's-right>b-wrong', 's-wrong>b-wrong']);
    expect(pairs[0]?.evidence).toEqual({
      winnerCheckpoint: 'strong',
      loserCheckpoint: 'base',
      winnerCorrect: true,
      loserCorrect: true,
      decidedBy: 'base',
      mode: 'outcome-at-least-as-good',
    });
  });

  it('mines label-free tasks, where no outcome exists to disagree', () => {
    const labelFree = fixtureTask('t2', false);
    const group = taskGroup([
      planEpisode({ id: 'early', task: labelFree, variant: 'a', orchestrator: { name: 'sim', checkpoint: 'c1', step: 100 } }),
      planEpisode({ id: 'late', task: labelFree, variant: 'b', orchestrator: { name: 'sim', checkpoint: 'c2', step: 200 } }),
    ]);
    const miner = createCheckpointMiner(defaults);
    expect(miner.skipReason(group)).toBeUndefined();
    const [pair] = miner.mine(group);
    expect(pair?.winner.id).toBe('late');
    expect(pair?.evidence).toMatchObject({ winnerStep: 200, loserStep: 100, decidedBy: 'step' });
  });
});
