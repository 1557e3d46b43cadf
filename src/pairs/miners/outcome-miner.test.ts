import { describe, expect, it } from 'vitest';
import { brokenEpisode, fixtureTask, planEpisode } from '../test-fixtures/plan-episode.js';
import { taskGroup } from '../test-fixtures/task-groups.js';
import { createOutcomeMiner } from './outcome-miner.js';

const task = fixtureTask('t1');

describe('outcome miner', () => {
  it('prefers each correct episode over each incorrect one, and nothing between equals', () => {
    const group = taskGroup([
      planEpisode({ id: 'e1', task, variant: 'a', correct: true }),
      planEpisode({ id: 'e2', task, variant: 'b', correct: false }),
      planEpisode({ id: 'e3', task, variant: 'c', correct: true }),
      brokenEpisode('e4', task, false),
    ]);
    const pairs = createOutcomeMiner().mine(group);
    expect(pairs.map((pair) => `${pair.winner.id}>${pair.loser.id}`)).toEqual(['e1>e2', 'e1>e4', 'e3>e2', 'e3>e4']);
    expect(pairs[1]?.evidence).toEqual({ winnerCorrect: true, loserCorrect: false, winnerStatus: 'ok', loserStatus: 'parse_error' });
  });

  it('ignores ungraded episodes and says why a task without grades is skipped', () => {
    const miner = createOutcomeMiner();
    const mixed = taskGroup([planEpisode({ id: 'e1', task, variant: 'a', correct: true }), planEpisode({ id: 'e2', task, variant: 'b' })]);
    expect(miner.skipReason(mixed)).toBeUndefined();
    expect(miner.mine(mixed)).toEqual([]);
    const labelFree = fixtureTask('t2', false);
    const ungraded = taskGroup([planEpisode({ id: 'e3', task: labelFree, variant: 'a' }), planEpisode({ id: 'e4', task: labelFree, variant: 'b' })]);
    expect(miner.skipReason(ungraded)).toBe('the task has no gold answer, so no episode was graded');
    const gradedLater = taskGroup([planEpisode({ id: 'e5', task, variant: 'a' })]);
    expect(miner.skipReason(gradedLater)).toBe('no episode of the task was graded (run collection with a grader)');
  });
});
