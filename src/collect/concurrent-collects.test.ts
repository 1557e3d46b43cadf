import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, expect, it } from 'vitest';
import { BUILT_CLI, ensureBuilt } from '../cli/test-fixtures/built-package.js';

const MAIN = BUILT_CLI;
beforeAll(ensureBuilt, 300_000);

function collect(db: string, seed: number): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, 'collect', '--scenario', 'default', '--count', '25', '--plans-per-task', '4', '--seed', String(seed), '--db', db, '--json'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

it('three collects writing one database at once: every episode once, integrity ok; the two with one fingerprint share one run', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'orchrm-concurrent-'));
  const db = join(directory, 'shared.db');
  try {
    const results = await Promise.all([collect(db, 1), collect(db, 1), collect(db, 2)]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const connection = new Database(db, { readonly: true });
    try {
      expect(connection.pragma('integrity_check', { simple: true })).toBe('ok');
      const counts = connection
        .prepare(`SELECT count(*) AS episodes, count(DISTINCT run_id || '#' || task_id || '#' || sample_index) AS samples, count(DISTINCT run_id) AS runs FROM episodes`)
        .get();
      expect(counts).toEqual({ episodes: 200, samples: 200, runs: 2 });
      expect(connection.prepare("SELECT count(*) AS completed FROM runs WHERE kind = 'collect' AND status = 'completed'").get()).toEqual({ completed: 2 });
    } finally {
      connection.close();
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}, 120_000);
