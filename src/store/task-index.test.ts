import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../core/index.js';
import { createParseErrorEpisode, createRichEpisode } from '../testing/episode-factory.js';
import { openStore } from './open-store.js';

let directory: string;
let db: string;

const task = (id: string, family: string, question: string, split?: string): Task => ({ id, suite: `suite-${family}`, question, answer: '1', metadata: { family, ...(split && { split }) } });

/** Six tasks: all correct, some correct, none correct (one failed plan), ungraded, no episodes, and one whose pairs put it in the test split. */
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-task-index-'));
  db = join(directory, 'store.db');
  const store = openStore(db);
  const tasks = [
    task('t-all', 'arith', 'How many APPLES are left?', 'train'),
    task('t-some', 'arith', 'How many pears?', 'train'),
    task('t-none', 'multihop', 'Who founded Acme?', 'train'),
    task('t-ungraded', 'multihop', 'Where is Acme?'),
    task('t-empty', 'multihop', 'Nobody planned for this one.'),
  ];
  store.upsertTasks(tasks);
  let seed = 1;
  const add = (taskIndex: number, correct: boolean | undefined) => {
    const episode = createRichEpisode({ seed: seed++, id: `ep-${seed}`, task: tasks[taskIndex]!, correct: correct ?? true, withMessages: false });
    if (correct === undefined) delete episode.grade;
    store.insertEpisode(episode);
  };
  add(0, true);
  add(0, true);
  add(1, true);
  add(1, false);
  add(2, false);
  store.insertEpisode({ ...createParseErrorEpisode({ seed: 99, id: 'ep-parse', task: tasks[2]!, withMessages: false }), grade: { correct: false, method: 'exact' } });
  add(3, undefined);
  store.insertPairs([
    { id: 'p1', datasetId: 'd', taskId: 't-none', question: 'Who founded Acme?', winner: { planText: 'a', episodeId: 'ep-6' }, loser: { planText: 'b', episodeId: 'ep-parse' }, source: 'process', split: 'test' },
  ]);
  store.close();
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('TaskIndex', () => {
  it('lists tasks in stored order with their outcome, family and split, and counts every match', () => {
    const store = openStore(db, { readonly: true });
    try {
      const { total, tasks } = store.taskIndex().list({ limit: 10 });
      expect(total).toBe(5);
      expect(tasks.map((entry) => [entry.id, entry.family, entry.split, entry.episodes, entry.graded, entry.correct, entry.failed, entry.outcome])).toEqual([
        ['t-all', 'arith', 'train', 2, 2, 2, 0, 'all-correct'],
        ['t-some', 'arith', 'train', 2, 2, 1, 0, 'some-correct'],
        // The pairs' split wins over the metadata's.
        ['t-none', 'multihop', 'test', 2, 2, 0, 1, 'none-correct'],
        ['t-ungraded', 'multihop', null, 1, 0, 0, 0, 'ungraded'],
        ['t-empty', 'multihop', null, 0, 0, 0, 0, 'no-episodes'],
      ]);
      expect(store.taskIndex().facets()).toEqual({
        tasks: 5,
        families: [{ value: 'multihop', tasks: 3 }, { value: 'arith', tasks: 2 }],
        splits: [{ value: 'train', tasks: 2 }, { value: 'test', tasks: 1 }],
        outcomes: [{ value: 'all-correct', tasks: 1 }, { value: 'no-episodes', tasks: 1 }, { value: 'none-correct', tasks: 1 }, { value: 'some-correct', tasks: 1 }, { value: 'ungraded', tasks: 1 }],
      });
    } finally {
      store.close();
    }
  });

  it('filters by family, split, outcome and text (any case), and pages', () => {
    const store = openStore(db, { readonly: true });
    try {
      const ids = (query: Parameters<ReturnType<typeof store.taskIndex>['list']>[0]) => store.taskIndex().list(query).tasks.map((entry) => entry.id);
      expect(ids({ family: 'arith' })).toEqual(['t-all', 't-some']);
      expect(ids({ split: 'test' })).toEqual(['t-none']);
      expect(ids({ outcome: 'ungraded' })).toEqual(['t-ungraded']);
      expect(ids({ outcome: 'no-episodes' })).toEqual(['t-empty']);
      expect(ids({ search: 'apples' })).toEqual(['t-all']);
      expect(ids({ search: 'ACME', family: 'multihop' })).toEqual(['t-none', 't-ungraded']);
      expect(ids({ search: 'T-SOME' })).toEqual(['t-some']);
      expect(ids({ limit: 2, offset: 2 })).toEqual(['t-none', 't-ungraded']);
      expect(store.taskIndex().list({ limit: 2, offset: 4 })).toMatchObject({ total: 5, tasks: [{ id: 't-empty' }] });
      expect(() => store.taskIndex().list({ limit: 0 })).toThrow(/limit/);
    } finally {
      store.close();
    }
  });
});
