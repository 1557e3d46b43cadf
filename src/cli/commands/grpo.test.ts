import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { saveRewardModel, syntheticPairs, trainRewardModel } from '../../rm/index.js';
import { loadCheckpoint } from '../../sim/index.js';
import { openStore } from '../../store/index.js';
import { listStoredCheckpoints } from '../../train/index.js';
import { runCommand } from '../test-fixtures/run-command.js';
import { registerGrpoCommand } from './grpo.js';
import { registerLoopCommand } from './loop.js';

const directory = mkdtempSync(join(tmpdir(), 'orchrm-grpo-cli-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

async function run(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = { stdout: '', stderr: '' };
  stdout.on('data', (chunk: Buffer) => (text.stdout += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (text.stderr += chunk.toString()));
  const program = new Command('orchrm').exitOverride();
  registerGrpoCommand(program, { stdout, stderr });
  await program.parseAsync(['grpo', ...args], { from: 'user' });
  return text;
}

describe('orchrm grpo', () => {
  it('trains with execution reward, logs tokens by role and held-out accuracy, writes the checkpoint to a file and the store', async () => {
    const out = join(directory, 'grpo-exec.json');
    const db = join(directory, 'grpo.db');
    const args = ['--reward', 'execution', '--steps', '2', '--group', '4', '--tasks-per-step', '4', '--eval-tasks', '10', '--eval-samples', '1', '--out', out, '--db', db];
    const text = await run([...args, '--json']);
    expect(process.exitCode).toBeUndefined();
    const result = JSON.parse(text.stdout);
    expect(result).toMatchObject({ reward: 'execution', from: { name: 'base', step: 0 }, checkpoint: { name: 'grpo-execution', step: 4 }, config: { groupSize: 4, steps: 2 } });
    expect(result.history).toHaveLength(2);
    expect(result.history[1].tokens.execution).toBeGreaterThan(0);
    expect(result.history[1].tokens.orchestrator).toBeGreaterThan(0);
    expect(result.evaluations.map((point: { step: number }) => point.step)).toEqual([0, 2]);
    expect(text.stderr).toMatch(/grpo: step 2\/2 reward \d\.\d{3}, training tokens [\d.]+M \(orchestrator [\d.]+M, execution [\d.]+M, verification 0\.00M\), held-out \d+\.\d%/);
    expect((await loadCheckpoint(out)).step).toBe(4);
    const store = openStore(db, { readonly: true });
    expect(listStoredCheckpoints(store, { orchestrator: 'sim-orchestrator' }).map((row) => [row.name, row.step])).toEqual([['grpo-execution', 4]]);
    store.close();

    const plain = await run([...args.slice(0, -4), '--name', 'again']);
    expect(plain.stdout).toContain('GRPO with execution reward from base (step 0): checkpoint again at step 4\nstep  held-out  orchestrator');
  }, 60_000);

  it('trains against the simulated plan judge', async () => {
    const text = await run(['--reward', 'judge', '--steps', '1', '--group', '3', '--tasks-per-step', '2', '--eval-tasks', '0', '--json']);
    const result = JSON.parse(text.stdout);
    expect(result.history[0].tokens.verification).toBeGreaterThan(0);
    expect(result.history[0].tokens.execution).toBe(0);
    expect(result.evaluations).toEqual([]);
  }, 60_000);

  it('trains with a reward model file (nothing executed) and with hybrid (some plans executed)', async () => {
    const modelFile = join(directory, 'rm.safetensors');
    const { model } = await trainRewardModel(syntheticPairs({ pairs: 400, seed: 1 }), { maxEpochs: 2, seed: 1 });
    await saveRewardModel(model, modelFile);
    const common = ['--steps', '1', '--group', '4', '--tasks-per-step', '4', '--eval-tasks', '0', '--rm', modelFile, '--json'];
    const rm = JSON.parse((await run(['--reward', 'rm', ...common])).stdout);
    expect(rm.history[0].tokens.verification).toBeGreaterThan(0);
    expect(rm.history[0].tokens.execution).toBe(0);
    const hybrid = JSON.parse((await run(['--reward', 'hybrid', '--hybrid-fraction', '0.5', ...common])).stdout);
    expect(hybrid.history[0].tokens.verification).toBeGreaterThanOrEqual(rm.history[0].tokens.verification);
    expect(hybrid.history[0].tokens.execution).toBeGreaterThan(0);
  }, 60_000);

  it('asks for a reward model when the reward needs one', async () => {
    // runAction reports errors on the process's stderr.
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
    await run(['--reward', 'rm', '--steps', '1', '--eval-tasks', '0']);
    expect(process.exitCode).toBe(2);
    expect(written.join('')).toContain('--reward rm needs a reward model; pass --rm <model.safetensors>');
  });
});

it('refuses --provider, saying grpo and loop train the simulated orchestrator and how to train a served one (issue 24 item 8)', async () => {
  for (const [register, command, ...rest] of [
    [registerGrpoCommand, 'grpo', '--reward', 'execution'],
    [registerLoopCommand, 'loop'],
  ] as const) {
    const outcome = await runCommand(register, [command, ...rest, '--provider', 'vllm.json']);
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toContain(`orchrm: ${command} takes no --provider: it trains the simulated orchestrator of a --scenario`);
    expect(outcome.stderr).toContain('run verl or OpenRLHF against orchrm serve (docs/integrations.md)');
  }
});
