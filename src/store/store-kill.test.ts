import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { countEpisodeCalls } from '../testing/episode-factory.js';
import { openStore } from './open-store.js';

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = join(here, '..', '..');
let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-kill-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

/** Starts the writer, SIGKILLs it once it has reported `killAfter` commits, returns the reported ids. */
async function runAndKill(path: string, killAfter: number): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'test-fixtures', 'kill-writer.ts'), path], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const committed: string[] = [];
  // readline yields only complete lines, so a half-printed id never counts as committed.
  for await (const line of createInterface({ input: child.stdout })) {
    committed.push(line);
    if (committed.length === killAfter) child.kill('SIGKILL');
  }
  const signal = await exited;
  if (signal !== 'SIGKILL') throw new Error(`writer exited before it was killed (signal ${signal}):\n${stderr}`);
  return committed;
}

it('loses no committed episode and half-writes none when the writer is killed', async () => {
  const path = join(directory, 'killed.db');
  const reported: string[] = [];
  // Several kills into the same file, each one landing on a database the previous kill left behind.
  for (const killAfter of [5, 20, 40]) reported.push(...(await runAndKill(path, killAfter)));
  expect(reported.length).toBeGreaterThanOrEqual(65);

  const store = openStore(path);
  try {
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(store.db.pragma('foreign_key_check')).toEqual([]);
    for (const id of reported) expect(store.hasEpisodeId(id), id).toBe(true);
    // At most one episode per kill committed without being reported yet.
    const stored = store.countEpisodes();
    expect(stored).toBeGreaterThanOrEqual(reported.length);
    expect(stored).toBeLessThanOrEqual(reported.length + 3);
    let checked = 0;
    for (const episode of store.iterateEpisodes()) {
      const { expectedNodeCount, expectedCallCount } = episode.task.metadata;
      expect(episode.nodes.length, episode.id).toBe(expectedNodeCount);
      expect(countEpisodeCalls(episode), episode.id).toBe(expectedCallCount);
      expect(episode.nodes.every((node) => node.calls.every((call) => call.messages !== undefined))).toBe(true);
      checked += 1;
    }
    expect(checked).toBe(stored);
  } finally {
    store.close();
  }
});
