import { spawn, execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { comparableEpisode } from '../testing/index.js';
import type { Episode } from '../core/episode.js';
import { Rng } from '../core/rng.js';
import { openStore } from '../store/index.js';
import { BUILT_CLI, ensureBuilt } from '../cli/test-fixtures/built-package.js';

const run = promisify(execFile);
const MAIN = BUILT_CLI;
beforeAll(ensureBuilt, 300_000);
const COLLECT = ['collect', '--scenario', 'default', '--count', '150', '--plans-per-task', '4', '--concurrency', '4', '--seed', '9', '--json'];
const TOTAL = 600;

function committed(db: string): number {
  try {
    const connection = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return (connection.prepare('SELECT count(*) AS n FROM episodes').get() as { n: number }).n;
    } finally {
      connection.close();
    }
  } catch {
    return 0; // the child has not created the database yet
  }
}

/** Starts a collection and SIGKILLs it once the database holds `killAt` episodes (or it ends first). */
async function collectUntilKilled(db: string, extra: string[], killAt: number): Promise<'killed' | 'finished'> {
  const child = spawn(process.execPath, [MAIN, ...COLLECT, '--db', db, ...extra], { stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let finished = false;
  void exited.then(() => (finished = true));
  while (!finished) {
    if (committed(db) >= killAt) {
      child.kill('SIGKILL');
      await exited;
      return 'killed';
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(await exited).toBe(0);
  return 'finished';
}

function bySample(db: string): Map<string, Episode> {
  const store = openStore(db, { readonly: true });
  try {
    return new Map([...store.iterateEpisodes({})].map((episode) => [`${episode.task.id}#${episode.sampleIndex}`, episode]));
  } finally {
    store.close();
  }
}


describe('orchrm collect --resume after SIGKILL', () => {
  it('survives repeated kills: nothing lost, nothing duplicated, the same episodes as an uninterrupted run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orchrm-resume-'));
    const interrupted = join(dir, 'interrupted.db');
    const rng = new Rng(2026);
    let kills = 0;
    let outcome = await collectUntilKilled(interrupted, [], 20 + rng.int(0, 60));
    if (outcome === 'killed') kills++;
    while (outcome === 'killed' || committed(interrupted) < TOTAL) {
      const next = committed(interrupted) + 30 + rng.int(0, 80);
      outcome = await collectUntilKilled(interrupted, ['--resume'], kills < 6 ? next : Number.POSITIVE_INFINITY);
      if (outcome === 'killed') kills++;
    }
    expect(kills).toBeGreaterThanOrEqual(5);

    const connection = new Database(interrupted, { readonly: true });
    expect(connection.pragma('integrity_check', { simple: true })).toBe('ok');
    const samples = connection.prepare('SELECT count(*) AS n, count(DISTINCT task_id || \'#\' || sample_index) AS distinct_samples, count(DISTINCT run_id) AS runs FROM episodes').get();
    connection.close();
    expect(samples).toEqual({ n: TOTAL, distinct_samples: TOTAL, runs: 1 });

    const reference = join(dir, 'reference.db');
    await run(process.execPath, [MAIN, ...COLLECT, '--db', reference]);
    const expected = bySample(reference);
    const actual = bySample(interrupted);
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, episode] of expected) expect(comparableEpisode(actual.get(key) as Episode)).toEqual(comparableEpisode(episode));
  }, 180_000);
});
