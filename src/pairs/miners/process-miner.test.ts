import { describe, expect, it } from 'vitest';
import { ProcessRubricSchema } from '../process-rubric.js';
import { brokenEpisode, fixtureTask, planEpisode } from '../test-fixtures/plan-episode.js';
import { taskGroup } from '../test-fixtures/task-groups.js';
import { createProcessMiner } from './process-miner.js';

const task = fixtureTask('t1', false);

describe('process miner', () => {
  it('prefers better artifacts when the scores differ by the threshold, with no gold answer', () => {
    const rubric = ProcessRubricSchema.parse({});
    const group = taskGroup(
      [
        planEpisode({ id: 'unanimous', task, variant: 'a', voteShare: 1 }),
        planEpisode({ id: 'split', task, variant: 'b', voteShare: 0.4 }),
        planEpisode({ id: 'near', task, variant: 'c', voteShare: 0.9 }),
        brokenEpisode('broken', task),
      ],
      rubric,
    );
    const pairs = createProcessMiner(rubric).mine(group);
    // unanimous 1, near 7.35/7.5 = 0.98, split 6.6/7.5 = 0.88, broken 0: only broken is 0.15 or more behind.
    expect(pairs.map((pair) => `${pair.winner.id}>${pair.loser.id}`)).toEqual(['unanimous>broken', 'split>broken', 'near>broken']);
    expect(pairs[1]?.evidence).toEqual({
      winnerScore: 0.88,
      loserScore: 0,
      gap: 0.88,
      threshold: 0.15,
      winnerTerms: { planValid: 1, nodeSuccess: 1, withinBudget: 1, blockAgreement: 0.4 },
      loserTerms: { planValid: 0 },
    });
    expect(pairs[1]?.margin).toBeUndefined();
  });

  it('honours a lower threshold and records a margin when asked', () => {
    const rubric = ProcessRubricSchema.parse({ threshold: 0.1, marginScale: 2 });
    const group = taskGroup([planEpisode({ id: 'unanimous', task, variant: 'a' }), planEpisode({ id: 'split', task, variant: 'b', voteShare: 0.4 })], rubric);
    const [pair] = createProcessMiner(rubric).mine(group);
    expect(pair?.winner.id).toBe('unanimous');
    expect(pair?.margin).toBe(0.24);
  });
});
