import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readSync, closeSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import { loadRewardModel } from './model-file.js';
import { readSafetensors } from './safetensors.js';
import { syntheticPairs } from './synthetic-pairs.js';
import { BUILT_CLI, ensureBuilt } from '../cli/test-fixtures/built-package.js';

const run = promisify(execFile);
const MAIN = BUILT_CLI;
beforeAll(ensureBuilt, 300_000);
const EPOCHS = 8;

/** Epochs recorded in a training resume state, from its header only (0 when there is none, yet or any more). */
function checkpointEpoch(path: string): number {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch (error) {
    // A finishing run deletes its resume state: it may go between a check and the open.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  try {
    const length = Buffer.alloc(8);
    readSync(descriptor, length, 0, 8, 0);
    const header = Buffer.alloc(Number(length.readBigUInt64LE(0)));
    readSync(descriptor, header, 0, header.length, 8);
    const metadata = (JSON.parse(header.toString('utf8')) as { __metadata__: { state: string } }).__metadata__;
    return (JSON.parse(metadata.state) as { epoch: number }).epoch;
  } finally {
    closeSync(descriptor);
  }
}

const trainArgs = (db: string, out: string) => [MAIN, 'rm', 'train', '--db', db, '--encoder', 'words:1-2,structure,task-stats,cross,bits:12', '--head', 'mlp', '--epochs', String(EPOCHS), '--seed', '5', '--no-tune', '--out', out, '--json'];

/** Runs `rm train` and SIGKILLs it once its checkpoint holds `killAtEpoch` epochs (or it ends first). */
async function trainUntilKilled(db: string, out: string, extra: string[], killAtEpoch: number): Promise<{ outcome: 'killed' | 'finished'; stderr: string }> {
  const child = spawn(process.execPath, [...trainArgs(db, out), ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let finished = false;
  void exited.then(() => (finished = true));
  while (!finished) {
    if (checkpointEpoch(`${out}.training.safetensors`) >= killAtEpoch) {
      child.kill('SIGKILL');
      await exited;
      return { outcome: 'killed', stderr };
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const code = await exited;
  return { outcome: code === 0 ? 'finished' : 'killed', stderr };
}

function tensors(path: string): Map<string, number[]> {
  const file = readSafetensors(readFileSync(path));
  return new Map([...file.tensors].map(([name, tensor]) => [name, Array.from(tensor.data)]));
}

describe('orchrm rm train --resume after SIGKILL', () => {
  it('continues from the last epoch checkpoint and writes the same model as an uninterrupted run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orchrm-rm-resume-'));
    const db = join(dir, 'pairs.db');
    const pairs = syntheticPairs({ pairs: 300, seed: 3 });
    const store = openStore(db);
    store.insertPairs(pairs);
    store.savePairDataset({ id: pairs[0]!.datasetId, kind: 'imported', config: {}, report: {} });
    store.close();

    const reference = join(dir, 'reference.safetensors');
    const { stdout } = await run(process.execPath, trainArgs(db, reference));
    const summary = JSON.parse(stdout) as { bestEpoch: number; stoppedEarly: boolean };
    // The kills below land at epochs 2 and 5: the run must go past them, and keep a best epoch from validation.
    expect(summary.stoppedEarly).toBe(false);
    expect(existsSync(`${reference}.training.safetensors`)).toBe(false);

    const interrupted = join(dir, 'interrupted.safetensors');
    let kills = 0;
    for (const [index, killAt] of [2, 5].entries()) {
      const { outcome, stderr } = await trainUntilKilled(db, interrupted, index === 0 ? [] : ['--resume'], killAt);
      if (outcome === 'killed') kills++;
      if (index > 0) expect(stderr).toMatch(/resumed after epoch [2-4] /);
      expect(checkpointEpoch(`${interrupted}.training.safetensors`)).toBeGreaterThanOrEqual(killAt);
      expect(existsSync(interrupted)).toBe(false);
    }
    expect(kills).toBe(2);
    const last = await trainUntilKilled(db, interrupted, ['--resume'], Number.POSITIVE_INFINITY);
    expect(last.outcome).toBe('finished');
    expect(last.stderr).toMatch(/resumed after epoch [5-7] /);
    expect(existsSync(`${interrupted}.training.safetensors`)).toBe(false);

    expect(tensors(interrupted)).toStrictEqual(tensors(reference));
    const [expected, actual] = await Promise.all([loadRewardModel(reference), loadRewardModel(interrupted)]);
    const question = pairs[0]!.question;
    const plans = pairs.slice(0, 20).flatMap((pair) => [pair.winner.planText, pair.loser.planText]);
    expect(await actual.score(question, plans)).toStrictEqual(await expected.score(question, plans));
    expect(actual.provenance.metrics?.bestEpoch).toBe(summary.bestEpoch);
    expected.close();
    actual.close();

    // A checkpoint of another run (here: another seed) is refused, not silently continued. (--force: the model file exists now.)
    await trainUntilKilled(db, interrupted, ['--force'], 2);
    const mismatch = await trainUntilKilled(db, interrupted, ['--resume', '--seed', '6', '--force'], Number.POSITIVE_INFINITY);
    expect(mismatch.outcome).toBe('killed'); // exited non-zero
    expect(mismatch.stderr).toMatch(/written for other pairs or another config/);
  }, 180_000);
});
