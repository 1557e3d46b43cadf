import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, expect, it } from 'vitest';
import { BUILT_CLI, ensureBuilt } from '../cli/test-fixtures/built-package.js';

const MAIN = BUILT_CLI;
beforeAll(ensureBuilt, 300_000);

function collect(db: string, seed: number): Promise<{ code: number | null; stderr: string; summary: { episodes: number; skipped: number; total: number } }> {
  const child = spawn(process.execPath, [MAIN, 'collect', '--scenario', 'default', '--count', '25', '--plans-per-task', '4', '--seed', String(seed), '--db', db, '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr, summary: stdout === '' ? { episodes: -1, skipped: -1, total: -1 } : JSON.parse(stdout) })));
}

it('three collects writing one database at once: every episode once, integrity ok; the two with one fingerprint share one run, its work done once, both summaries whole', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'orchrm-concurrent-'));
  const db = join(directory, 'shared.db');
  try {
    const results = await Promise.all([collect(db, 1), collect(db, 1), collect(db, 2)]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    // The two identical ones share the work, never both doing it, and both summarise the whole run.
    const [first, second] = results;
    expect([first!.summary.episodes, second!.summary.episodes]).toEqual([100, 100]);
    expect(first!.summary.episodes - first!.summary.skipped + (second!.summary.episodes - second!.summary.skipped)).toBe(100);
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
