import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../store/index.js';
import { BUILT_CLI, ensureBuilt } from '../test-fixtures/built-package.js';

beforeAll(ensureBuilt, 300_000);
const directory = mkdtempSync(join(tmpdir(), 'orchrm-in-process-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function spawnCollect(args: string[]) {
  const child = spawn(process.execPath, [BUILT_CLI, 'collect', '--scenario', 'default', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

describe('an in-process simulated collection yields to the event loop', () => {
  it('Ctrl-C (a real SIGINT) stops it with exit 130, the committed episodes kept for a resume', async () => {
    const db = join(directory, 'sigint.db');
    // Far more work than the test waits for: without the yield, SIGINT waited for all of it.
    const run = spawnCollect(['--count', '2000', '--plans-per-task', '8', '--db', db, '--events']);
    await new Promise<void>((resolve) => {
      const onData = () => {
        if (!run.output().stdout.includes('"episode-end"')) return;
        run.child.stdout.off('data', onData);
        resolve();
      };
      run.child.stdout.on('data', onData);
    });
    run.child.kill('SIGINT');
    // A run that ignores SIGINT is ended here, so a failing test leaves no process behind.
    const leftover = setTimeout(() => run.child.kill('SIGKILL'), 60_000);
    const code = await run.exited;
    clearTimeout(leftover);
    const { stderr } = run.output();
    expect(code, stderr).toBe(130);
    const held = Number(/interrupted: run run_\w+ holds (\d+) of 16000 episodes/.exec(stderr)?.[1]);
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(16_000);
    const store = openStore(db, { readonly: true });
    expect(store.countEpisodes()).toBe(held);
    store.close();
  }, 120_000);

  it('--timeout-ms stops episodes that run past it', async () => {
    const run = spawnCollect(['--count', '30', '--plans-per-task', '2', '--timeout-ms', '1', '--db', join(directory, 'timeout.db'), '--json']);
    const code = await run.exited;
    const { stdout, stderr } = run.output();
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(stdout) as { episodes: number; byStatus: Record<string, number> };
    expect(summary.episodes).toBe(60);
    expect(summary.byStatus.timeout ?? 0).toBeGreaterThan(0);
  }, 120_000);
});
