import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI, ensureBuilt } from '../cli/test-fixtures/built-package.js';

const run = promisify(execFile);
const MAIN = BUILT_CLI;
beforeAll(ensureBuilt, 300_000);
const STEPS = 8;
const grpoArgs = (out: string, db: string) => [
  MAIN, 'grpo', '--reward', 'execution', '--steps', String(STEPS), '--group', '4', '--tasks-per-step', '4',
  '--eval-tasks', '5', '--eval-samples', '1', '--eval-interval', '3', '--seed', '3', '--out', out, '--db', db, '--json',
];

/** Steps recorded in a run's state file (0 when there is none yet). */
function stateStep(out: string): number {
  try {
    return (JSON.parse(readFileSync(`${out}.grpo-state.json`, 'utf8')) as { step: number }).step;
  } catch {
    return 0; // not written yet (the rename makes a half-written file impossible)
  }
}

/** Runs `orchrm grpo` and SIGKILLs it once its state holds `killAtStep` steps (or it ends first). */
async function grpoUntilKilled(out: string, db: string, extra: string[], killAtStep: number) {
  const child = spawn(process.execPath, [...grpoArgs(out, db), ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  const text = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (text.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let finished = false;
  void exited.then(() => (finished = true));
  while (!finished) {
    if (stateStep(out) >= killAtStep) {
      child.kill('SIGKILL');
      await exited;
      return { outcome: 'killed' as const, ...text };
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { outcome: (await exited) === 0 ? ('finished' as const) : ('failed' as const), ...text };
}

function storedSteps(db: string): number[] {
  const connection = new Database(db, { readonly: true });
  try {
    return (connection.prepare('SELECT step FROM checkpoints ORDER BY step').all() as { step: number }[]).map((row) => row.step);
  } finally {
    connection.close();
  }
}

describe('orchrm grpo --resume after SIGKILL', () => {
  it('continues after the last finished step and ends with the same checkpoint, logs and token counts as an uninterrupted run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orchrm-grpo-resume-'));
    const reference = join(dir, 'reference.json');
    const { stdout } = await run(process.execPath, grpoArgs(reference, join(dir, 'reference.db')));
    expect(existsSync(`${reference}.grpo-state.json`)).toBe(false);

    const out = join(dir, 'interrupted.json');
    const db = join(dir, 'interrupted.db');
    let kills = 0;
    for (const [index, killAt] of [2, 5].entries()) {
      const attempt = await grpoUntilKilled(out, db, index === 0 ? [] : ['--resume'], killAt);
      if (attempt.outcome === 'killed') kills++;
      if (index > 0) expect(attempt.stderr).toMatch(/resumed after step [2-4] /);
      expect(existsSync(out)).toBe(false);
    }
    expect(kills).toBe(2);
    const last = await grpoUntilKilled(out, db, ['--resume'], Number.POSITIVE_INFINITY);
    expect(last.outcome).toBe('finished');
    expect(last.stderr).toMatch(/resumed after step [5-7] /);
    expect(existsSync(`${out}.grpo-state.json`)).toBe(false);

    expect(JSON.parse(readFileSync(out, 'utf8'))).toStrictEqual(JSON.parse(readFileSync(reference, 'utf8')));
    // History (rewards, cumulative tokens by role), held-out evaluations and evaluation tokens all continue seamlessly.
    expect(JSON.parse(last.stdout)).toStrictEqual(JSON.parse(stdout));
    expect(storedSteps(db)).toStrictEqual(storedSteps(join(dir, 'reference.db')));

    // A state from a run with other flags is refused. (--force: the checkpoint file exists now.)
    await grpoUntilKilled(out, db, ['--force'], 1);
    const mismatch = await grpoUntilKilled(out, db, ['--resume', '--seed', '4', '--force'], Number.POSITIVE_INFINITY);
    expect(mismatch.outcome).toBe('failed');
    expect(mismatch.stderr).toMatch(/written by a run with other flags/);
  }, 180_000);
});
