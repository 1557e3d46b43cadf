import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { SqliteDatabase } from '../core/sqlite-database.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EpisodeSchema } from '../core/episode.js';
import { createRichEpisode } from '../testing/episode-factory.js';
import { MIGRATIONS, migrate, readSchemaVersion, SCHEMA_VERSION } from './migrations.js';
import { openStore } from './open-store.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'test-fixtures');
let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-migrations-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function tableNames(db: SqliteDatabase): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((row) => row.name);
}

describe('migrations', () => {
  it('creates the schema once and is idempotent on reopen', () => {
    const path = join(directory, 'fresh.db');
    const episode = createRichEpisode({ withMessages: false });
    const first = openStore(path);
    expect(readSchemaVersion(first.db)).toBe(SCHEMA_VERSION);
    expect(first.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(first.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(first.db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(tableNames(first.db)).toEqual(
      ['checkpoints', 'episodes', 'llm_calls', 'models', 'node_traces', 'pair_datasets', 'pairs', 'results', 'runs', 'tasks'],
    );
    first.insertEpisode(episode);
    first.close();

    const second = openStore(path);
    expect(readSchemaVersion(second.db)).toBe(SCHEMA_VERSION);
    expect(migrate(second.db, path)).toBe(SCHEMA_VERSION);
    expect(second.getEpisode(episode.id)).toStrictEqual(episode);
    second.close();
  });

  it('opens the version 1 fixture and reads its episodes back exactly', () => {
    const path = join(directory, 'v1.db');
    copyFileSync(join(fixtures, 'schema-v1.db'), path);
    const expected = EpisodeSchema.array().parse(JSON.parse(readFileSync(join(fixtures, 'schema-v1-episodes.json'), 'utf8')));
    // Writable first: it migrates the copy, which a read-only open refuses to do.
    for (const readonly of [false, true]) {
      const store = openStore(path, { readonly });
      expect(expected.map((episode) => store.getEpisode(episode.id))).toStrictEqual(expected);
      expect(store.getRun('run_v1')).toMatchObject({ kind: 'collect', status: 'completed', seed: 7 });
      store.close();
    }
  });

  it('opens the version 3 fixture, adds the reasoning column and reads its episodes back exactly', () => {
    const path = join(directory, 'v3.db');
    copyFileSync(join(fixtures, 'schema-v3.db'), path);
    const expected = EpisodeSchema.array().parse(JSON.parse(readFileSync(join(fixtures, 'schema-v3-episodes.json'), 'utf8')));
    const store = openStore(path);
    expect(readSchemaVersion(store.db)).toBe(SCHEMA_VERSION);
    const columns = (store.db.prepare("SELECT name FROM pragma_table_info('llm_calls')").all() as { name: string }[]).map((row) => row.name);
    expect(columns).toContain('reasoning');
    expect(expected.map((episode) => store.getEpisode(episode.id))).toStrictEqual(expected);
    expect(expected[0]!.nodes[0]!.calls[0]!.attemptErrors).toEqual(['RateLimitError: 127.0.0.1 answered 429: rate limited']);
    // Written by this version, a call's reasoning comes back beside its response.
    const episode = createRichEpisode({ seed: 33, runId: 'run_v3' });
    episode.nodes[0]!.calls[0]!.reasoning = 'First add, then multiply.';
    store.insertEpisode(episode);
    expect(store.getEpisode(episode.id)?.nodes[0]!.calls[0]!.reasoning).toBe('First add, then multiply.');
    store.close();
  });

  it('refuses a database from a newer orchrm with a clear message, without touching it', () => {
    const path = join(directory, 'future.db');
    openStore(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const message = `database ${path} has schema version ${SCHEMA_VERSION + 1}, newer than this orchrm understands (${SCHEMA_VERSION}); upgrade orchrm`;
    expect(() => openStore(path)).toThrow(message);
    expect(() => openStore(path, { readonly: true })).toThrow(message);
    const check = new Database(path) as unknown as SqliteDatabase;
    expect(readSchemaVersion(check)).toBe(SCHEMA_VERSION + 1);
    check.close();
  });

  it('applies each migration atomically: a failing step leaves the previous version intact', () => {
    const db = new Database(join(directory, 'atomic.db')) as unknown as SqliteDatabase;
    const broken = [...MIGRATIONS, { version: SCHEMA_VERSION + 1, name: 'broken', sql: 'CREATE TABLE extra (x TEXT); CREATE TABLE runs (y TEXT);' }];
    expect(() => migrate(db, 'atomic.db', broken)).toThrow(/table runs already exists/);
    expect(readSchemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(tableNames(db)).not.toContain('extra');
    db.close();
  });

  it('explains files it cannot use', () => {
    const notDb = join(directory, 'notes.db');
    writeFileSync(notDb, 'these are not the pages you are looking for'.repeat(100));
    expect(() => openStore(notDb)).toThrow(`${notDb} is not an SQLite database`);
    expect(() => openStore(join(directory, 'absent.db'), { readonly: true })).toThrow(/no orchrm database at .*absent\.db/);

    const foreign = join(directory, 'foreign.db');
    const raw = new Database(foreign);
    raw.exec('CREATE TABLE runs (whatever TEXT)');
    raw.close();
    expect(() => openStore(foreign)).toThrow(/could not bring .*foreign\.db to schema version \d+: table runs already exists/);
  });

  it('refuses writes through a read-only store', () => {
    const path = join(directory, 'ro.db');
    openStore(path).close();
    const store = openStore(path, { readonly: true });
    expect(() => store.insertEpisode(createRichEpisode())).toThrow(/opened read-only/);
    store.close();
  });
});
