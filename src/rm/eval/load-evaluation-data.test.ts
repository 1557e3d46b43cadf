import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Episode } from '../../core/episode.js';
import { assignSplit } from '../../pairs/assign-split.js';
import { openStore, type Store } from '../../store/index.js';
import { createRichEpisode } from '../../testing/episode-factory.js';
import { loadEvaluationData, loadTaskTexts, resolvePairDataset } from './load-evaluation-data.js';

const SPLITS = { train: 0.5, validation: 0, test: 0.5 };
const SEED = 3;

let directory: string;
let store: Store;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-eval-'));
  store = openStore(join(directory, 'orchrm.db'));
});
afterEach(() => {
  store.close();
  rmSync(directory, { recursive: true, force: true });
});

function storedEpisode(taskNumber: number, sample: number, options: { correct?: boolean; graded?: boolean; planText?: string; runId?: string } = {}): Episode {
  const task = { id: `task-${taskNumber}`, suite: 'arith', question: `What is ${taskNumber} + ${sample}?`, answer: '1', metadata: {} };
  const episode = createRichEpisode({ seed: taskNumber * 10 + sample + 1, id: `ep-${taskNumber}-${sample}`, task, sampleIndex: sample, correct: options.correct ?? sample % 2 === 0 });
  const { grade, ...rest } = episode;
  return { ...rest, ...(options.graded === false ? {} : { grade: grade! }), planText: options.planText ?? `plan ${taskNumber}.${sample}`, ...(options.runId && { runId: options.runId }) };
}

describe('loadEvaluationData', () => {
  it('takes test pairs and every graded episode of test-split tasks, by the dataset own split rule', () => {
    const tasks = Array.from({ length: 12 }, (_, index) => index);
    const testTasks = tasks.filter((task) => assignSplit(`task-${task}`, SEED, SPLITS) === 'test');
    expect(testTasks.length).toBeGreaterThan(1);
    expect(testTasks.length).toBeLessThan(tasks.length);
    for (const task of tasks) for (const sample of [0, 1]) store.insertEpisode(storedEpisode(task, sample));
    const testTask = testTasks[0] as number;
    store.insertEpisode(storedEpisode(testTask, 2, { graded: false }));
    store.insertEpisode(storedEpisode(testTask, 3, { planText: '  ' }));
    store.insertPairs(
      tasks.map((task) => ({
        id: `pair-${task}`,
        datasetId: 'mined-1',
        taskId: `task-${task}`,
        question: `What is ${task} + 0?`,
        winner: { planText: `plan ${task}.0`, episodeId: `ep-${task}-0` },
        loser: { planText: `plan ${task}.1`, episodeId: `ep-${task}-1` },
        source: 'outcome',
        split: assignSplit(`task-${task}`, SEED, SPLITS),
      })),
    );
    store.savePairDataset({ id: 'mined-1', kind: 'mined', config: { seed: SEED, splits: SPLITS, filter: {} }, report: {} });

    const data = loadEvaluationData(store);
    expect(data.datasetId).toBe('mined-1');
    expect(data.pairs.map((pair) => pair.taskId).sort()).toStrictEqual(testTasks.map((task) => `task-${task}`).sort());
    // Two graded episodes with plan text per test task; the ungraded and the plan-less one are left out.
    expect(data.episodes).toHaveLength(2 * testTasks.length);
    expect(data.episodes.find((episode) => episode.id === `ep-${testTask}-0`)).toStrictEqual({
      id: `ep-${testTask}-0`,
      taskId: `task-${testTask}`,
      question: `What is ${testTask} + 0?`,
      planText: `plan ${testTask}.0`,
      correct: true,
      valid: true,
    });
    expect(data.episodes.filter((episode) => episode.correct)).toHaveLength(testTasks.length);

    const validation = loadEvaluationData(store, { datasetId: 'mined-1', split: 'validation' });
    expect(validation.pairs).toStrictEqual([]);
    expect(validation.episodes).toStrictEqual([]);
  });

  it('reads only the episodes the dataset was mined from', () => {
    store.createRun({ id: 'run-a', kind: 'collect', config: {} });
    store.createRun({ id: 'run-b', kind: 'collect', config: {} });
    for (let task = 0; task < 6; task++) {
      store.insertEpisode(storedEpisode(task, 0, { runId: 'run-a' }));
      store.insertEpisode(storedEpisode(task, 1, { runId: 'run-b' }));
    }
    store.savePairDataset({ id: 'from-a', kind: 'mined', config: { seed: 0, splits: { train: 0, validation: 0, test: 1 }, filter: { runId: 'run-a' } }, report: {} });
    const data = loadEvaluationData(store, { datasetId: 'from-a' });
    expect(data.episodes.map((episode) => episode.id).sort()).toStrictEqual(Array.from({ length: 6 }, (_, task) => `ep-${task}-0`));
  });

  it('has pairs only for an imported dataset, and names what is missing', () => {
    store.savePairDataset({ id: 'imported-1', kind: 'imported', config: { file: 'pairs.jsonl' }, report: {} });
    store.insertEpisode(storedEpisode(1, 0));
    expect(loadEvaluationData(store, { datasetId: 'imported-1' }).episodes).toStrictEqual([]);
    expect(() => resolvePairDataset(store, 'nope')).toThrow(/no pair dataset "nope" in .*orchrm.db \(datasets: imported-1\); mine one with orchrm pairs mine/);
  });

  it("reads every stored task's text outside the test split, run or not, for a dataset of the whole store only", () => {
    const tasks = Array.from({ length: 12 }, (_, index) => ({ id: `task-${index}`, suite: 'multihop', question: `Who is the mayor of Town${String.fromCharCode(97 + index)}?`, metadata: {} }));
    store.upsertTasks(tasks);
    store.insertEpisode(storedEpisode(0, 0));
    store.savePairDataset({ id: 'whole', kind: 'mined', config: { seed: SEED, splits: SPLITS }, report: {} });
    const kept = tasks.filter((task) => assignSplit(task.id, SEED, SPLITS) !== 'test');
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(tasks.length);
    // task-0 ran (its episode keeps its own copy of the task); the others never did.
    expect(loadTaskTexts(store, 'whole')).toStrictEqual(kept.map((task) => ({ taskId: task.id, question: task.question, suite: 'multihop', split: 'train' })));
    store.savePairDataset({ id: 'one-run', kind: 'mined', config: { seed: SEED, splits: SPLITS, filter: { runId: 'run-a' } }, report: {} });
    expect(loadTaskTexts(store, 'one-run')).toStrictEqual([]);
    store.savePairDataset({ id: 'imported-2', kind: 'imported', config: { file: 'pairs.jsonl' }, report: {} });
    expect(loadTaskTexts(store, 'imported-2')).toStrictEqual([]);
  });

  it('asks for a mined dataset when the store has none', () => {
    expect(() => loadEvaluationData(store)).toThrow(/holds no pair dataset; mine pairs first with orchrm pairs mine --db/);
  });
});
