import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PairSchema, type PairInput } from '../core/pair.js';
import { createRichEpisode } from '../testing/episode-factory.js';
import { openStore } from './open-store.js';
import type { Store } from './store.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'test-fixtures');
let directory: string;
let store: Store;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-pair-store-'));
  store = openStore(join(directory, 'store.db'), { now: () => new Date(Date.UTC(2026, 1, 2)) });
});
afterEach(() => {
  store.close();
  rmSync(directory, { recursive: true, force: true });
});

function pair(id: string, overrides: Partial<PairInput> = {}): PairInput {
  return {
    id,
    datasetId: 'ds-1',
    taskId: 'task-1',
    question: 'What is 2 + 2? — ответ',
    winner: { planText: '<dom>low</dom>' },
    loser: { planText: '<dom>high</dom>' },
    source: 'process',
    ...overrides,
  };
}

describe('pair store', () => {
  it('writes pairs and reads them back with defaults applied, filtered and counted', () => {
    const written = [
      pair('p1', { margin: 0.5, evidence: { gap: 0.5 }, split: 'train' }),
      pair('p2', { source: 'correct-over-incorrect', weight: 2, split: 'test', taskId: 'task-2' }),
      pair('p3', { datasetId: 'ds-2' }),
    ];
    expect(store.insertPairs(written)).toBe(3);
    expect([...store.iteratePairs({ datasetId: 'ds-1' })]).toStrictEqual([
      { ...written[0], weight: 1 },
      { ...written[1], evidence: {} },
    ]);
    expect(store.countPairs()).toBe(3);
    expect(store.countPairs({ split: 'test' })).toBe(1);
    expect(store.countPairs({ datasetId: 'ds-1', source: 'process' })).toBe(1);
    expect(store.deletePairs('ds-1')).toBe(2);
    expect(store.countPairs()).toBe(1);
  });

  it('refuses an invalid pair before writing any, naming it and the field', () => {
    expect(() => store.insertPairs([pair('ok'), pair('bad', { weight: -1 })])).toThrow(/pair \[1\] bad is invalid:\n {2}- weight/);
    expect(store.countPairs()).toBe(0);
    expect(() => store.countPairs({ split: 'holdout' } as never)).toThrow(/pair filter is invalid/);
  });

  it('summarizes outcome agreement from the episodes each pair came from', () => {
    const correct = createRichEpisode({ seed: 1, correct: true });
    const wrong = createRichEpisode({ seed: 1, sampleIndex: 1, correct: false });
    for (const episode of [correct, wrong]) store.insertEpisode(episode);
    const side = (episode: typeof correct) => ({ planText: episode.planText, episodeId: episode.id });
    store.insertPairs([
      pair('agree', { winner: side(correct), loser: side(wrong), split: 'train' }),
      pair('disagree', { winner: side(wrong), loser: side(correct), split: 'train' }),
      pair('same', { winner: side(correct), loser: side(correct), split: 'train' }),
      pair('imported', { split: 'train' }),
    ]);
    // Sides equal to their episode's plan text are stored once, in the episode, and read back whole.
    const edited = pair('edited', { winner: { planText: 'hand-edited plan', episodeId: correct.id }, loser: side(wrong) });
    store.insertPairs([edited]);
    expect([...store.iteratePairs({ datasetId: 'ds-1' })].find((stored) => stored.id === 'edited')).toStrictEqual({ ...edited, weight: 1, evidence: {} });
    expect(store.db.prepare("SELECT count(*) AS n FROM pairs WHERE winner_text IS NULL").get()).toEqual({ n: 3 });
    store.db.prepare("DELETE FROM pairs WHERE id = 'edited'").run();
    expect(store.summarizePairs({ datasetId: 'ds-1' })).toStrictEqual([
      { source: 'process', split: 'train', pairs: 4, graded: 3, atLeastAsGood: 2, differing: 2, strictlyBetter: 1 },
    ]);
  });

  it('records how a dataset was made and deletes the record with its pairs', () => {
    store.savePairDataset({ id: 'ds-1', kind: 'mined', config: { seed: 3 }, report: { pairs: 1 } });
    store.insertPairs([pair('p1')]);
    expect(store.listPairDatasets()).toStrictEqual([
      { id: 'ds-1', kind: 'mined', config: { seed: 3 }, report: { pairs: 1 }, createdAt: '2026-02-02T00:00:00.000Z' },
    ]);
    store.deletePairs('ds-1');
    expect(store.listPairDatasets()).toStrictEqual([]);
  });

  it('migrates a version 1 database so it can hold pairs; read-only opens ask for that first', () => {
    const path = join(directory, 'v1.db');
    copyFileSync(join(fixtures, 'schema-v1.db'), path);
    expect(() => openStore(path, { readonly: true })).toThrow(/schema version 1, older than \d+; open it once for writing/);
    const migrated = openStore(path);
    migrated.insertPairs([pair('p1')]);
    expect([...migrated.iteratePairs()].map((stored) => stored.question)).toEqual(['What is 2 + 2? — ответ']);
    migrated.close();
  });

  it('opens the version 2 fixture and reads its pairs back exactly', () => {
    const path = join(directory, 'v2.db');
    copyFileSync(join(fixtures, 'schema-v2.db'), path);
    const expected = PairSchema.array().parse(JSON.parse(readFileSync(join(fixtures, 'schema-v2-pairs.json'), 'utf8')));
    // Writable first: it migrates the copy, which a read-only open refuses to do.
    for (const readonly of [false, true]) {
      const fixture = openStore(path, { readonly });
      expect([...fixture.iteratePairs()]).toStrictEqual(expected);
      expect(fixture.listPairDatasets().map((dataset) => dataset.id)).toEqual(['ds_v2']);
      fixture.close();
    }
  });
});
