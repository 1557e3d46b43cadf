import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Episode } from '../core/episode.js';
import { createParseErrorEpisode, createRichEpisode } from '../testing/episode-factory.js';
import { exportEpisodesJsonl } from './export-episodes-jsonl.js';
import { importEpisodesJsonl } from './import-episodes-jsonl.js';
import { openStore } from './open-store.js';
import type { Store } from './store.js';

let directory: string;
let stores: Store[];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-jsonl-'));
  stores = [];
});
afterEach(() => {
  for (const store of stores) store.close();
  rmSync(directory, { recursive: true, force: true });
});

function open(name: string): Store {
  const store = openStore(join(directory, name), { keepPrompts: true });
  stores.push(store);
  return store;
}

function fill(store: Store): Episode[] {
  const run = store.createRun({ kind: 'collect', config: {} });
  const episodes = [
    ...[1, 2, 3, 4].map((seed) => createRichEpisode({ seed, runId: run.id, sampleIndex: seed })),
    createParseErrorEpisode({ seed: 5, runId: run.id, sampleIndex: 5 }),
    createRichEpisode({ seed: 6 }),
  ];
  for (const episode of episodes) store.insertEpisode(episode);
  return episodes;
}

it('exports and imports into a fresh store with every episode equal, and re-import skips', async () => {
  const source = open('source.db');
  const episodes = fill(source);
  const file = join(directory, 'episodes.jsonl');
  expect(await exportEpisodesJsonl(source, file)).toEqual({ exported: 6 });
  expect(existsSync(`${file}.partial`)).toBe(false);
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  expect(lines.map((line) => (JSON.parse(line) as Episode).id)).toEqual(episodes.map((episode) => episode.id));

  const target = open('target.db');
  expect(await importEpisodesJsonl(target, file)).toEqual({ imported: 6, skipped: 0 });
  for (const episode of episodes) expect(target.getEpisode(episode.id)).toStrictEqual(episode);
  expect(target.getRun(episodes[0]?.runId ?? '')).toMatchObject({ kind: 'import', config: { file } });
  expect(await importEpisodesJsonl(target, file)).toEqual({ imported: 0, skipped: 6 });
  expect(target.countEpisodes()).toBe(6);
});

it('exports a filtered selection to a stream and leaves it open', async () => {
  const source = open('source.db');
  const episodes = fill(source);
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  expect(await exportEpisodesJsonl(source, stream, { status: 'parse_error' })).toEqual({ exported: 1 });
  expect(stream.writableEnded).toBe(false);
  expect(JSON.parse(chunks.join(''))).toStrictEqual(episodes[4]);
});

it('stops with the stream error when the reader goes away instead of waiting for a drain', async () => {
  const source = open('source.db');
  fill(source);
  let writes = 0;
  const closing = new Writable({
    write(_chunk, _encoding, callback) {
      writes += 1;
      callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    },
  });
  await expect(exportEpisodesJsonl(source, closing)).rejects.toThrow('write EPIPE');
  expect(writes).toBe(1);
});

it('files imported episodes under a chosen run and skips resume-key duplicates', async () => {
  const file = join(directory, 'external.jsonl');
  const first = createRichEpisode({ seed: 1, id: 'ext-1' });
  const sameSample = createRichEpisode({ seed: 1, id: 'ext-2' });
  const other = createRichEpisode({ seed: 2, id: 'ext-3', sampleIndex: 1 });
  writeFileSync(file, [first, sameSample, other].map((episode) => JSON.stringify(episode)).join('\n'));
  const store = open('target.db');
  expect(await importEpisodesJsonl(store, file, { runId: 'imported-run' })).toEqual({ imported: 2, skipped: 1 });
  expect(store.getEpisode('ext-3')).toStrictEqual({ ...other, runId: 'imported-run' });
  expect(store.getRun('imported-run')?.kind).toBe('import');
});

it('refuses a file with bad lines, naming each line and field, and writes nothing', async () => {
  const file = join(directory, 'bad.jsonl');
  const good = createRichEpisode({ seed: 1, runId: 'run-a' });
  const badStatus = { ...createRichEpisode({ seed: 2 }), nodes: [{ ...good.nodes[0], status: 'exploded' }] };
  const { task: _task, ...noTask } = createRichEpisode({ seed: 3 });
  const future = { ...createRichEpisode({ seed: 4 }), schemaVersion: 2 };
  writeFileSync(file, [JSON.stringify(good), '{"id": "truncated', '', JSON.stringify(badStatus), JSON.stringify(noTask), JSON.stringify(future)].join('\n'));
  const store = open('target.db');
  const error = await importEpisodesJsonl(store, file).then(
    () => undefined,
    (reason: unknown) => reason as Error,
  );
  expect(error?.name).toBe('InvalidInputError');
  const message = error?.message ?? '';
  expect(message).toContain(`${file} is invalid:`);
  expect(message).toMatch(/line 2: \(root\): not valid JSON/);
  expect(message).toMatch(/line 4: nodes\[0\]\.status: /);
  expect(message).toMatch(/line 5: task: /);
  expect(message).toMatch(/line 6: schemaVersion: 2 is newer than this orchrm reads \(1\); upgrade orchrm/);
  expect(message).toContain('4 line(s) invalid; nothing was imported');
  expect(store.countEpisodes()).toBe(0);
  expect(store.getRun('run-a')).toBeUndefined();
});

it('names a missing file', async () => {
  const store = open('target.db');
  await expect(importEpisodesJsonl(store, join(directory, 'nope.jsonl'))).rejects.toThrow(/cannot read .*nope\.jsonl: ENOENT/);
});
