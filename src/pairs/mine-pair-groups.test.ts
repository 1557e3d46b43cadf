import { describe, expect, it } from 'vitest';
import type { Episode } from '../core/episode.js';
import { Rng } from '../core/rng.js';
import { minePairGroups } from './mine-pair-groups.js';
import { PairMiningConfigSchema, type PairMiningConfigInput } from './mining-config.js';
import { brokenEpisode, fixtureTask, planEpisode } from './test-fixtures/plan-episode.js';
import { taskGroups } from './test-fixtures/task-groups.js';

const config = (input: PairMiningConfigInput = {}) => PairMiningConfigSchema.parse(input);
const outcomeOnly = config({ sources: ['outcome'] });
const names = (pairs: readonly { winner: { episodeId?: string }; loser: { episodeId?: string } }[]) =>
  pairs.map((pair) => `${pair.winner.episodeId}>${pair.loser.episodeId}`);

/** Several tasks, each with episodes from two checkpoints, mixed outcomes, vote shares and costs. */
function mixedEpisodes(tasks: number, gold = true): Episode[] {
  const rng = new Rng(5);
  const episodes: Episode[] = [];
  for (let t = 0; t < tasks; t++) {
    const task = fixtureTask(`task-${String(t).padStart(3, '0')}`, gold);
    for (let e = 0; e < 6; e++) {
      const orchestrator = { name: 'sim', checkpoint: e % 2 === 0 ? 'base' : 'strong' };
      const id = `${task.id}-e${e}`;
      if (e === 5) {
        episodes.push(brokenEpisode(id, task, gold ? false : undefined, orchestrator));
        continue;
      }
      episodes.push(
        planEpisode({
          id,
          task,
          variant: `v${rng.int(0, 3)}`,
          ...(gold && { correct: rng.chance(0.5) }),
          executionTokens: rng.int(50, 400),
          voteShare: rng.int(2, 5) / 5,
          orchestrator,
        }),
      );
    }
  }
  return episodes;
}

describe('minePairGroups', () => {
  it('never pairs two episodes with the same canonical plan, however the texts differ', () => {
    const task = fixtureTask('t');
    const groups = taskGroups([
      planEpisode({ id: 'clean', task, variant: 'a', correct: true }),
      planEpisode({ id: 'noisy', task, variant: 'a', correct: false, noisyText: true }),
    ]);
    const { pairs, report } = minePairGroups(groups, outcomeOnly, 'ds');
    expect(pairs).toEqual([]);
    expect(report.sources.outcome).toMatchObject({ mined: 1, kept: 0, dropped: { sameCanonicalPlan: 1 } });
  });

  it('merges episode pairs over the same two plans: the majority wins, an even split is a tie and dropped', () => {
    const task = fixtureTask('t');
    const tie = [
      planEpisode({ id: 'a1', task, variant: 'a', correct: true }),
      planEpisode({ id: 'b1', task, variant: 'b', correct: false }),
      planEpisode({ id: 'a2', task, variant: 'a', correct: false }),
      planEpisode({ id: 'b2', task, variant: 'b', correct: true }),
    ];
    const tied = minePairGroups(taskGroups(tie), outcomeOnly, 'ds');
    expect(tied.pairs).toEqual([]);
    expect(tied.report.sources.outcome?.dropped).toMatchObject({ ties: 2, sameCanonicalPlan: 2 });

    const majority = minePairGroups(taskGroups([...tie, planEpisode({ id: 'a3', task, variant: 'a', correct: true })]), outcomeOnly, 'ds');
    expect(names(majority.pairs)).toEqual(['a1>b1']);
    expect(majority.pairs[0]?.evidence).toMatchObject({ agreeingEpisodePairs: 2, disagreeingEpisodePairs: 1 });
  });

  it('caps pairs per task and source, per task, and per source', () => {
    const episodes = mixedEpisodes(10);
    const capped = minePairGroups(taskGroups(episodes), config({ caps: { perTaskPerSource: 2, perTask: 5, perSource: 12 } }), 'ds');
    const perTask = new Map<string, number>();
    const perTaskSource = new Map<string, number>();
    for (const pair of capped.pairs) {
      perTask.set(pair.taskId, (perTask.get(pair.taskId) ?? 0) + 1);
      const key = `${pair.taskId}/${pair.source}`;
      perTaskSource.set(key, (perTaskSource.get(key) ?? 0) + 1);
    }
    expect(Math.max(...perTask.values())).toBeLessThanOrEqual(5);
    expect(Math.max(...perTaskSource.values())).toBeLessThanOrEqual(2);
    for (const source of ['outcome', 'checkpoint', 'process', 'efficiency'] as const) {
      const report = capped.report.sources[source]!;
      expect(report.kept).toBeLessThanOrEqual(12);
      expect(capped.pairs.filter((pair) => pair.source === source)).toHaveLength(report.kept);
    }
    expect(capped.report.sources.process?.dropped.perTaskPerSource).toBeGreaterThan(0);
    expect(capped.report.sources.process?.dropped.perTask).toBeGreaterThan(0);
  });

  it('balances sources by weight: loss weight shares, or subsampled counts', () => {
    const groups = taskGroups(mixedEpisodes(20));
    const sourceWeights = { outcome: 2, checkpoint: 1, process: 1, efficiency: 1 };
    // Reliability weights are off here: this is about balancing alone.
    const weighted = minePairGroups(groups, config({ balance: { mode: 'weight', sourceWeights }, reliability: { method: 'none' } }), 'ds').pairs;
    const total = (source: string) => weighted.filter((pair) => pair.source === source).reduce((sum, pair) => sum + pair.weight, 0);
    expect(weighted.reduce((sum, pair) => sum + pair.weight, 0)).toBeCloseTo(weighted.length, 9);
    expect(total('outcome') / total('process')).toBeCloseTo(2, 9);
    expect(total('checkpoint') / total('efficiency')).toBeCloseTo(1, 9);

    const counted = minePairGroups(groups, config({ balance: { mode: 'count', sourceWeights }, reliability: { method: 'none' } }), 'ds');
    const count = (source: string) => counted.pairs.filter((pair) => pair.source === source).length;
    expect(counted.pairs.every((pair) => pair.weight === 1)).toBe(true);
    const scale = Math.min(count('checkpoint'), count('process'), count('efficiency'));
    expect([count('checkpoint'), count('process'), count('efficiency')]).toEqual([scale, scale, scale]);
    expect(count('outcome')).toBe(2 * scale);
    expect(counted.report.sources.process!.dropped.balance + counted.report.sources.process!.kept).toBe(
      minePairGroups(groups, config({ balance: { mode: 'none' }, reliability: { method: 'none' } }), 'ds').report.sources.process!.kept,
    );
  });

  it('label-free mode: process and checkpoint pairs, outcome and efficiency skipped with the reason', () => {
    const { pairs, report } = minePairGroups(taskGroups(mixedEpisodes(5, false)), config(), 'ds');
    expect(new Set(pairs.map((pair) => pair.source))).toEqual(new Set(['process', 'checkpoint']));
    expect(report.labelFreeTasks).toBe(5);
    for (const source of ['outcome', 'efficiency'] as const) {
      expect(report.sources[source]).toMatchObject({
        mined: 0,
        kept: 0,
        tasksSkipped: 5,
        skipReasons: { 'the task has no gold answer, so no episode was graded': 5 },
        skipped: 'every task was skipped: the task has no gold answer, so no episode was graded',
      });
    }
  });

  it('assigns splits by task: no task in two splits, every split used', () => {
    const { pairs } = minePairGroups(taskGroups(mixedEpisodes(60)), config(), 'ds');
    const splitOfTask = new Map<string, Set<string>>();
    for (const pair of pairs) splitOfTask.set(pair.taskId, (splitOfTask.get(pair.taskId) ?? new Set()).add(pair.split ?? 'none'));
    expect([...splitOfTask.values()].every((splits) => splits.size === 1)).toBe(true);
    expect(new Set(pairs.map((pair) => pair.split))).toEqual(new Set(['train', 'validation', 'test']));
  });

  it('is deterministic under a seed, whatever order the episodes come in', () => {
    const episodes = mixedEpisodes(15);
    const first = minePairGroups(taskGroups(episodes), config({ seed: 3, caps: { perSource: 20 } }), 'ds');
    const shuffled = new Rng(9).shuffle(episodes);
    const second = minePairGroups(taskGroups(shuffled), config({ seed: 3, caps: { perSource: 20 } }), 'ds');
    expect(second).toStrictEqual(first);
    const otherSeed = minePairGroups(taskGroups(episodes), config({ seed: 4, caps: { perSource: 20 } }), 'ds');
    expect(otherSeed.pairs.map((pair) => pair.id)).not.toEqual(first.pairs.map((pair) => pair.id));
  });
});
