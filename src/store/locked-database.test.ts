import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRichEpisode } from '../testing/episode-factory.js';
import { DatabaseLockedError } from './database-locked-error.js';
import { importEpisodesJsonl } from './import-episodes-jsonl.js';
import { openStore } from './open-store.js';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-locked-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

/** Another process that takes the write lock of `path`, says so, and holds it for `holdMs` (or until killed). */
async function holdLock(path: string, holdMs: number) {
  const script = `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(path)}); db.exec('BEGIN IMMEDIATE'); process.stdout.write('locked\\n'); setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${holdMs});`;
  const child = spawn(process.execPath, ['-e', script], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
  return { pid: child.pid!, exited: new Promise((resolve) => child.once('exit', resolve)), kill: () => child.kill('SIGKILL') };
}

describe('a locked database', () => {
  it('is waited for: a lock held 6 s by another process (longer than the old 5 s) delays a commit but does not fail it', async () => {
    const db = join(directory, 'runs.db');
    openStore(db).close();
    const holder = await holdLock(db, 6_000);
    const store = openStore(db);
    try {
      store.insertEpisode(createRichEpisode({ id: 'ep-after-lock' }));
      expect(store.hasEpisodeId('ep-after-lock')).toBe(true);
    } finally {
      store.close();
      await holder.exited;
    }
  }, 30_000);

  it('that never frees ends in a typed error naming the process holding it and the runs marked running', async () => {
    const db = join(directory, 'runs.db');
    const setup = openStore(db);
    setup.createRun({ id: 'run_stuck', kind: 'collect', config: {} });
    setup.close();
    const holder = await holdLock(db, 600_000);
    const store = openStore(db, { busyTimeoutMs: 300 });
    try {
      let caught: unknown;
      try {
        store.insertEpisode(createRichEpisode({ id: 'ep-never' }));
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(DatabaseLockedError);
      const message = (caught as Error).message;
      expect(message).toContain(`${db} stayed locked by another writer`);
      expect(message).toContain(`pid ${holder.pid} (`);
      expect(message).toContain('collect run run_stuck');
      expect(message).toContain('then run this command again');
    } finally {
      store.close();
      holder.kill();
      await holder.exited;
    }
  }, 30_000);

  it('import writes in batches: another writer commits while a large file is being imported', async () => {
    const db = join(directory, 'runs.db');
    const file = join(directory, 'episodes.jsonl');
    const count = 300;
    writeFileSync(file, Array.from({ length: count }, (_, index) => JSON.stringify(createRichEpisode({ seed: index + 1, id: `ep-${index}`, withMessages: false }))).join('\n'));
    const store = openStore(db);
    // A second writer that never waits: it commits only while the import holds no lock.
    const other = new Database(db);
    other.pragma('busy_timeout = 0');
    other.exec('CREATE TABLE IF NOT EXISTS beside_import (at INTEGER)');
    let committedBeside = 0;
    let importing = true;
    const committedEpisodes = other.prepare<[], { count: number }>('SELECT count(*) AS count FROM episodes');
    const tick = setInterval(() => {
      // Only once the import has begun writing (it validates the whole file first) and until it returns.
      if (!importing || committedEpisodes.get()!.count === 0) return;
      try {
        other.prepare('INSERT INTO beside_import VALUES (?)').run(Date.now());
        committedBeside += 1;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
      }
    }, 5);
    try {
      const summary = await importEpisodesJsonl(store, file, { batchSize: 50 });
      importing = false;
      expect(summary).toEqual({ imported: count, skipped: 0 });
      expect(committedBeside).toBeGreaterThan(0);
    } finally {
      clearInterval(tick);
      other.close();
      store.close();
    }
  }, 60_000);
});
