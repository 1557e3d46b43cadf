import { describe, expect, it } from 'vitest';
import { ProcessSignalsConfigSchema } from '../process-signals.js';
import { brokenEpisode, fixtureTask, planEpisode } from '../test-fixtures/plan-episode.js';
import { taskGroup } from '../test-fixtures/task-groups.js';
import { createProcessMiner } from './process-miner.js';

const task = fixtureTask('t1', false);
const named = (pairs: ReturnType<ReturnType<typeof createProcessMiner>['mine']>) => pairs.map((pair) => `${pair.winner.id}>${pair.loser.id}:${String(pair.evidence.signal)}`);

describe('process miner', () => {
  it('prefers the answer more of the other episodes reached (consensus), with no gold answer', () => {
    const config = ProcessSignalsConfigSchema.parse({ agreement: { enabled: false } });
    const group = taskGroup([
      planEpisode({ id: 'a1', task, variant: 'a', answer: '7' }),
      planEpisode({ id: 'a2', task, variant: 'b', answer: '7' }),
      planEpisode({ id: 'a3', task, variant: 'c', answer: '7' }),
      planEpisode({ id: 'lone', task, variant: 'd', answer: '9' }),
    ]);
    // Each 7 agrees with 2 of its 3 others (0.67); the 9 with none (0).
    expect(named(createProcessMiner(config).mine(group))).toEqual(['a1>lone:consensus', 'a2>lone:consensus', 'a3>lone:consensus']);
    expect(createProcessMiner(config).mine(group)[0]?.evidence).toEqual({ signal: 'consensus', winnerValue: 0.6667, loserValue: 0 });
  });

  it('votes once per deciding signal and prefers a valid plan over an invalid one', () => {
    const config = ProcessSignalsConfigSchema.parse({});
    const group = taskGroup([
      planEpisode({ id: 'grounded', task, variant: 'a', answer: 'Paris', grounded: true }),
      planEpisode({ id: 'ungrounded', task, variant: 'b', answer: 'Lyon', grounded: false }),
      brokenEpisode('broken', task),
    ]);
    const pairs = named(createProcessMiner(config).mine(group));
    // One valid other each: consensus 0 on both sides decides nothing; grounding 1 vs 0 does.
    expect(pairs).toEqual(['grounded>ungrounded:grounding', 'grounded>broken:validity', 'ungrounded>broken:validity']);
  });

  it('compares self-consistency agreement of the answer node and records a margin when asked', () => {
    const config = ProcessSignalsConfigSchema.parse({ consensus: { enabled: false }, marginScale: 2 });
    const group = taskGroup([planEpisode({ id: 'unanimous', task, variant: 'a' }), planEpisode({ id: 'split', task, variant: 'b', voteShare: 0.4 })]);
    const [pair, ...rest] = createProcessMiner(config).mine(group);
    expect(rest).toHaveLength(0);
    expect(pair).toMatchObject({ winner: { id: 'unanimous' }, loser: { id: 'split' }, margin: 1.2, evidence: { signal: 'agreement', winnerValue: 1, loserValue: 0.4 } });
  });

  it('makes no pair when no signal differs by its threshold, and none between two invalid plans', () => {
    const config = ProcessSignalsConfigSchema.parse({});
    const same = taskGroup([planEpisode({ id: 'x', task, variant: 'a', voteShare: 0.8 }), planEpisode({ id: 'y', task, variant: 'b', voteShare: 0.7 })]);
    expect(createProcessMiner(config).mine(same)).toEqual([]);
    expect(createProcessMiner(config).mine(taskGroup([brokenEpisode('b1', task), brokenEpisode('b2', task)]))).toEqual([]);
  });
});
