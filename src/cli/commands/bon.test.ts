import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PairInput } from '../../core/pair.js';
import { saveRewardModel } from '../../rm/model-file.js';
import { trainRewardModel } from '../../rm/train-reward-model.js';
import { PairSchema } from '../../core/pair.js';
import { openStore } from '../../store/index.js';
import { registerBonCommand } from './bon.js';

const plan = (agent: string) => JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent, input: '', params: {} }], edges: [], answer: 'A' });

/** Runs `orchrm bon ...` in-process and returns what it wrote to stdout. */
async function bon(args: readonly string[]): Promise<{ stdout: string; exitCode: number | undefined }> {
  const program = new Command('orchrm').exitOverride();
  registerBonCommand(program);
  const chunks: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    chunks.push(String(chunk));
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const previousExitCode = process.exitCode;
  process.exitCode = undefined;
  try {
    await program.parseAsync(['node', 'orchrm', 'bon', ...args]);
    return { stdout: chunks.join(''), exitCode: process.exitCode as number | undefined };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
    process.exitCode = previousExitCode;
  }
}

describe('orchrm bon', () => {
  let directory: string;
  let model: string;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'orchrm-bon-'));
    model = join(directory, 'rm.safetensors');
    // A tiny model preferring self-consistency plans: enough to exercise loading and scoring.
    const pairs: PairInput[] = Array.from({ length: 40 }, (_, index) => ({
      id: `p${index}`,
      datasetId: 'd',
      taskId: `t${index}`,
      question: `What is ${index} plus ${index + 1}?`,
      winner: { planText: plan('sc') },
      loser: { planText: plan('cot') },
      source: 'outcome',
      split: index % 5 === 0 ? 'validation' : 'train',
    }));
    const { model: trained } = await trainRewardModel(pairs.map((pair) => PairSchema.parse(pair)), { seed: 1 });
    await saveRewardModel(trained, model);
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('prints the issue JSON at N and stores the run and its result', async () => {
    const db = join(directory, 'bon.db');
    const { stdout, exitCode } = await bon(['--scenario', 'arith', '--count', '4', '--n', '2', '--rm', model, '--db', db, '--seed', '3', '--json']);
    expect(exitCode).toBeUndefined();
    const table = JSON.parse(stdout) as Record<string, unknown> & { strategies: Record<string, Record<string, unknown>>; paired: Record<string, unknown> };
    expect(Object.keys(table)).toEqual(['n', 'tasks', 'strategies', 'paired']);
    expect(table.n).toBe(2);
    expect(table.tasks).toBe(4);
    expect(Object.keys(table.strategies)).toEqual(['single', 'first-valid', 'rm', 'rm-topk-vote', 'rm-adaptive', 'majority', 'judge', 'plan-judge', 'oracle']);
    expect(Object.keys(table.strategies.rm!)).toEqual(['accuracy', 'ci', 'tokens', 'executionsPerTask']);
    expect(Object.keys(table.strategies.rm!.tokens as object)).toEqual(['orchestrator', 'execution', 'verification', 'total']);
    expect(table.paired['rm-vs-single']).toMatchObject({ diff: expect.any(Number), ci: [expect.any(Number), expect.any(Number)] });
    const store = openStore(db);
    try {
      const [result] = store.listResults('bon');
      expect(result?.runId).toBeDefined();
      expect(store.getRun(result!.runId!)?.status).toBe('completed');
      expect((result!.payload.curve as unknown[]).length).toBe(1);
    } finally {
      store.close();
    }
  });

  it('is deterministic in the seed and prints a table with the curve', async () => {
    const args = ['--scenario', 'arith', '--count', '3', '--n', '2', '--curve', '--strategies', 'single,majority,oracle', '--db', join(directory, 'curve.db')];
    const first = await bon([...args, '--json']);
    const second = await bon([...args, '--json']);
    expect(JSON.parse(first.stdout)).toEqual(JSON.parse(second.stdout));
    expect((JSON.parse(first.stdout) as { curve: { n: number }[] }).curve.map((entry) => entry.n)).toEqual([1, 2, 4, 8, 16]);
    const text = await bon(args);
    expect(text.stdout).toContain('N = 16, 3 tasks');
    expect(text.stdout).toMatch(/majority-vs-single/);
  });

  it('refuses rm strategies without a model', async () => {
    const { exitCode } = await bon(['--scenario', 'arith', '--count', '2', '--strategies', 'rm', '--db', join(directory, 'x.db')]);
    expect(exitCode).toBe(2);
  });
});
