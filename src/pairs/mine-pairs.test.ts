import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/index.js';
import { exportPairs } from './export-pairs.js';
import { importPairs } from './import-pairs.js';
import { minePairs } from './mine-pairs.js';
import { pairStats } from './pair-stats.js';
import { brokenEpisode, fixtureTask, planEpisode } from './test-fixtures/plan-episode.js';

let directory: string;
let store: Store;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-pairs-'));
  store = openStore(join(directory, 'store.db'));
});
afterEach(() => {
  store.close();
  rmSync(directory, { recursive: true, force: true });
});

/** Two tasks with gold answers and one without; base and strong checkpoints. */
function seed(): void {
  const base = { name: 'sim', checkpoint: 'base' };
  const strong = { name: 'sim', checkpoint: 'strong' };
  const graded = fixtureTask('graded');
  const other = fixtureTask('other');
  const free = fixtureTask('free', false);
  const episodes = [
    planEpisode({ id: 'g1', task: graded, variant: 'a', correct: true, orchestrator: strong, executionTokens: 100 }),
    planEpisode({ id: 'g2', task: graded, variant: 'b', correct: true, orchestrator: base, executionTokens: 400, voteShare: 0.4 }),
    brokenEpisode('g3', graded, false, base),
    planEpisode({ id: 'o1', task: other, variant: 'a', correct: false, orchestrator: strong, voteShare: 0.2 }),
    planEpisode({ id: 'o2', task: other, variant: 'b', correct: true, orchestrator: base }),
    planEpisode({ id: 'f1', task: free, variant: 'a', orchestrator: strong }),
    brokenEpisode('f2', free, undefined, base),
    { ...planEpisode({ id: 'empty', task: free, variant: 'z' }), planText: '' },
  ];
  for (const episode of episodes) store.insertEpisode(episode);
}

describe('minePairs over a store', () => {
  it('mines every source, writes the dataset with its config, and re-mining replaces it', () => {
    seed();
    const progress: number[] = [];
    const result = minePairs(store, { config: { seed: 1 }, events: (event) => progress.push(event.done) });
    expect(progress).toEqual([8]);
    expect(result).toMatchObject({ episodes: 7, tasks: 3, labelFreeTasks: 1, withoutPlanText: 1 });
    expect(result.sources.outcome?.kept).toBe(3); // g1>g3, g2>g3, o2>o1
    expect(result.sources.efficiency?.kept).toBe(1); // g1>g2
    expect(store.countPairs({ datasetId: result.datasetId })).toBe(result.pairs);
    const [record] = store.listPairDatasets();
    expect(record).toMatchObject({ id: result.datasetId, kind: 'mined', config: { seed: 1, labelFree: false, process: { consensus: { threshold: 0.1 } } } });

    const again = minePairs(store, { config: { seed: 1 } });
    expect(again.datasetId).toBe(result.datasetId);
    expect(store.countPairs()).toBe(result.pairs);
  });

  it('reports counts per source and split and each label-free source’s agreement with outcome', () => {
    seed();
    const { datasetId } = minePairs(store, { config: { balance: { mode: 'none' } } });
    const stats = pairStats(store, { datasetId });
    expect(stats.bySource.outcome?.pairs).toBe(3);
    expect(Object.values(stats.bySplit).reduce((sum, count) => sum + count, 0)).toBe(stats.pairs);
    expect(Object.keys(stats.agreementWithOutcome).sort()).toEqual(['checkpoint', 'process']);
    // checkpoint (unconditional, the default): g1>g2 (both right), g1>g3 (right over wrong), o1>o2 (wrong over right), f1>f2 ungraded.
    expect(stats.agreementWithOutcome.checkpoint).toEqual({ pairs: 4, graded: 3, atLeastAsGood: 0.6667, differing: 2, strictlyBetter: 0.5 });
    // process: validity g1>g3, g2>g3, f1>f2; vote share (agreement) g1>g2 (1 vs 0.4) and o2>o1 (1 vs 0.2); every valid
    // plan of a task gave the same answer, so consensus decides nothing.
    expect(stats.agreementWithOutcome.process).toEqual({ pairs: 5, graded: 4, atLeastAsGood: 1, differing: 3, strictlyBetter: 1 });
    expect(stats.datasets).toEqual([expect.objectContaining({ id: datasetId, kind: 'mined' })]);
  });
});

describe('export and import', () => {
  it('writes TRL, OpenRLHF and the published layout', async () => {
    seed();
    const { datasetId } = minePairs(store, { config: { sources: ['process'], process: { marginScale: 1 } } });
    const [pair] = [...store.iteratePairs({ datasetId })];
    const read = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

    await exportPairs(store, join(directory, 'trl.jsonl'), { format: 'trl', filter: { datasetId } });
    expect(read(join(directory, 'trl.jsonl'))[0]).toEqual({ prompt: pair?.question, chosen: pair?.winner.planText, rejected: pair?.loser.planText, margin: pair?.margin ?? 0 });

    const openRlhfKeys = { prompt: 'context', chosen: 'good', rejected: 'bad' };
    await exportPairs(store, join(directory, 'openrlhf.jsonl'), { format: 'openrlhf', openRlhfKeys, planText: 'canonical', filter: { datasetId } });
    const row = read(join(directory, 'openrlhf.jsonl'))[0];
    expect(Object.keys(row ?? {})).toEqual(['context', 'good', 'bad', 'margin']);
    expect(row?.good).toMatch(/^<dom>low<\/dom>\n<agent>/);

    await exportPairs(store, join(directory, 'published.jsonl'), { format: 'orchrm', filter: { datasetId } });
    expect(read(join(directory, 'published.jsonl'))[0]).toEqual({ input: pair?.question, chosen: pair?.winner.planText, rejected: pair?.loser.planText, source: 'process' });
  });

  it('round-trips the published layout, keeping source names and one split per question', async () => {
    seed();
    const { datasetId } = minePairs(store, { config: { sources: ['outcome', 'checkpoint'] } });
    const file = join(directory, 'published.jsonl');
    const { exported } = await exportPairs(store, file, { format: 'orchrm', filter: { datasetId } });
    const rows = readFileSync(file, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as { source: string });
    expect(new Set(rows.map((row) => row.source))).toEqual(new Set(['correct-over-incorrect', 'specialized-over-base']));

    writeFileSync(file, `${readFileSync(file, 'utf8')}${JSON.stringify(rows[0])}\n\n`);
    const target = openStore(join(directory, 'target.db'));
    const summary = await importPairs(target, file);
    expect(summary).toEqual({ datasetId: 'imported-published.jsonl', imported: exported, duplicates: 1 });
    const imported = [...target.iteratePairs()];
    expect(imported.map((pair) => pair.source).sort()).toEqual(rows.map((row) => row.source).sort());
    const splits = new Map<string, string | undefined>();
    for (const pair of imported) {
      expect(splits.get(pair.taskId) ?? pair.split).toBe(pair.split);
      splits.set(pair.taskId, pair.split);
    }
    const out = join(directory, 'again.jsonl');
    await exportPairs(target, out, { format: 'orchrm' });
    expect(readFileSync(out, 'utf8').trimEnd().split('\n').sort()).toEqual(readFileSync(file, 'utf8').trimEnd().split('\n').slice(0, exported).sort());
    expect((await importPairs(target, file, { split: 'validation' })).imported).toBe(exported);
    expect(target.countPairs({ split: 'validation' })).toBe(exported);
    target.close();
  });

  it('refuses a bad file whole, naming each bad line', async () => {
    const file = join(directory, 'bad.jsonl');
    writeFileSync(file, '{"input": "q", "chosen": "a", "rejected": "b", "source": "x"}\n{"input": "q"}\nnot json\n');
    await expect(importPairs(store, file)).rejects.toThrow(/line 2: chosen: [\s\S]*line 2: source: [\s\S]*line 3: \(root\): not valid JSON/);
    expect(store.countPairs()).toBe(0);
    await expect(importPairs(store, join(directory, 'absent.jsonl'))).rejects.toThrow(/cannot read .*absent\.jsonl: ENOENT/);
  });
});

describe('label-free mining', () => {
  it('reads no grade: only checkpoint and process pairs, the same whatever the grades say', () => {
    seed();
    const result = minePairs(store, { config: { labelFree: true } });
    expect(result.labelFree).toBe(true);
    expect(Object.keys(result.sources).sort()).toEqual(['checkpoint', 'process']);
    expect(result.reliability.every((entry) => entry.method !== 'calibration')).toBe(true);
    const flipped = openStore(join(directory, 'flipped.db'));
    for (const episode of store.iterateEpisodes({})) {
      flipped.insertEpisode(episode.grade === undefined ? episode : { ...episode, grade: { ...episode.grade, correct: !episode.grade.correct } });
    }
    const again = minePairs(flipped, { config: { labelFree: true } });
    const described = (source: Store, datasetId: string) => [...source.iteratePairs({ datasetId })].map((pair) => [pair.source, pair.winner.episodeId, pair.loser.episodeId, pair.weight, pair.split]);
    expect(described(flipped, again.datasetId)).toEqual(described(store, result.datasetId));
    expect(described(store, result.datasetId).length).toBeGreaterThan(0);
    // With grades in play, the outcome-based mining does change when grades flip.
    expect(minePairs(flipped, { config: { sources: ['outcome'] } }).pairs).not.toBe(0);
    flipped.close();
  });

  it('refuses sources and settings that read grades', () => {
    expect(() => minePairs(store, { config: { labelFree: true, sources: ['outcome', 'process'] } })).toThrow(/outcome pairs read grades/);
    expect(() => minePairs(store, { config: { labelFree: true, checkpoint: { mode: 'outcome-at-least-as-good' } } })).toThrow(/reads grades/);
    expect(() => minePairs(store, { config: { labelFree: true, reliability: { method: 'calibration' } } })).toThrow(/calibration reads grades/);
  });
});
