import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerBonCommand } from '../cli/commands/bon.js';
import { runCommand } from '../cli/test-fixtures/run-command.js';
import { collectEpisodes } from '../collect/index.js';
import { minePairs } from '../pairs/index.js';
import { createSimEnvironment, loadScenario } from '../sim/index.js';
import { openStore, type Store } from '../store/index.js';
import { loadRewardModel, saveRewardModel } from './model-file.js';
import { trainRewardModel } from './train-reward-model.js';
import { trainingSource, worldOfRun } from './stored-reward-model.js';
import { trainingMismatch, type TrainingSource } from './trained-reward-model.js';

describe('worldOfRun and trainingMismatch', () => {
  it('read the world from a run config', () => {
    expect(worldOfRun({ config: { scenario: { name: 'arith', families: {} } } })).toEqual({ kind: 'scenario', scenario: 'arith' });
    expect(worldOfRun({ config: { scenario: 'default' } })).toEqual({ kind: 'scenario', scenario: 'default' });
    expect(worldOfRun({ config: { scenario: null, tasksFile: '/data/gsm8k-train.jsonl', suite: 'gsm8k' } })).toEqual({ kind: 'task-file', suite: 'gsm8k', file: 'gsm8k-train.jsonl' });
    expect(worldOfRun({ config: { purpose: 'loop' } })).toBeUndefined();
  });

  it('warn for another scenario or suite, or an unrecorded source; a suite\'s other file fits', () => {
    const arith: TrainingSource = { datasetId: 'ds', worlds: [{ kind: 'scenario', scenario: 'arith' }] };
    const gsm8k: TrainingSource = { datasetId: 'ds', worlds: [{ kind: 'task-file', suite: 'gsm8k', file: 'gsm8k-train.jsonl' }] };
    expect(trainingMismatch('rm.safetensors', arith, { kind: 'scenario', scenario: 'arith' })).toBeUndefined();
    expect(trainingMismatch('rm.safetensors', arith, { kind: 'scenario', scenario: 'default' })).toBe(
      'rm.safetensors was trained on scenario arith (pair dataset ds), but this run uses scenario default; its scores may not carry over to these tasks',
    );
    expect(trainingMismatch('rm.safetensors', gsm8k, { kind: 'task-file', suite: 'gsm8k', file: 'gsm8k-test.jsonl' })).toBeUndefined();
    expect(trainingMismatch('rm.safetensors', gsm8k, { kind: 'task-file', suite: 'aime', file: 'aime-2025.jsonl' })).toMatch(/trained on gsm8k tasks from gsm8k-train\.jsonl .* uses aime tasks from aime-2025\.jsonl/);
    expect(trainingMismatch('rm.safetensors', undefined, { kind: 'scenario', scenario: 'default' })).toMatch(/does not record what it was trained on/);
    expect(trainingMismatch('rm.safetensors', { datasetId: 'ds', worlds: [{ kind: 'imported', file: 'pairs.jsonl' }] }, { kind: 'scenario', scenario: 'x' })).toBeUndefined();
  });
});

describe('a model file records what it was trained on', () => {
  let directory: string;
  let store: Store;
  let datasetId: string;
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'orchrm-trained-on-'));
    store = openStore(join(directory, 'arith.db'));
    const environment = await createSimEnvironment(loadScenario('arith'));
    await collectEpisodes({
      environment,
      tasks: environment.tasks('train', 12),
      orchestrator: environment.orchestrator('base'),
      store,
      plansPerTask: 4,
      config: { scenario: environment.scenario },
    });
    datasetId = minePairs(store, { config: { seed: 1 } }).datasetId;
  });
  afterAll(() => {
    store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('keeps it through save and load, reads files without it, and bon warns on another world', async () => {
    const source = trainingSource(store, datasetId);
    expect(source).toEqual({ datasetId, worlds: [{ kind: 'scenario', scenario: 'arith' }] });
    const pairs = [...store.iteratePairs({ datasetId })];
    const { model } = await trainRewardModel(pairs, { maxEpochs: 2, seed: 1 });
    const older = join(directory, 'older.safetensors');
    await saveRewardModel(model, older);
    expect((await loadRewardModel(older)).provenance.trainedOn).toBeUndefined();
    model.provenance.trainedOn = source;
    const path = join(directory, 'arith.safetensors');
    await saveRewardModel(model, path);
    expect((await loadRewardModel(path)).provenance.trainedOn).toEqual(source);

    const bon = (rm: string, scenario: string) =>
      runCommand(registerBonCommand, ['bon', '--scenario', scenario, '--count', '2', '--n', '2', '--strategies', 'single,rm', '--rm', rm, '--db', join(directory, 'bon.db'), '--json']);
    expect((await bon(path, 'default')).stderr).toContain(`orchrm: warning: ${path} was trained on scenario arith (pair dataset ${datasetId}), but this run uses scenario default`);
    expect((await bon(path, 'arith')).stderr).not.toContain('warning');
    expect((await bon(older, 'arith')).stderr).toContain(`orchrm: warning: ${older} does not record what it was trained on`);
  });
});
