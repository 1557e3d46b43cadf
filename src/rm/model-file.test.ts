import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import { listModels } from '../store/model-store.js';
import { loadRewardModel, MODEL_FORMAT_VERSION, saveRewardModel } from './model-file.js';
import { registerRewardModel } from './stored-reward-model.js';
import { readSafetensors, writeSafetensors } from './safetensors.js';
import { syntheticPairs } from './synthetic-pairs.js';
import { trainRewardModel } from './train-reward-model.js';

const directory = mkdtempSync(join(tmpdir(), 'orchrm-rm-file-'));
const pairs = syntheticPairs({ pairs: 120, seed: 9 });
const probes = pairs.slice(0, 10).flatMap((pair) => [pair.winner.planText, pair.loser.planText]);
// Executed plans for the cost head and the calibration: 1,000 tokens per node, winners correct.
const planOutcomes = pairs.flatMap((pair) =>
  [pair.winner, pair.loser].map((side, position) => ({
    taskId: pair.taskId,
    question: pair.question,
    planText: side.planText,
    executionTokens: 1000 * (side.planText.split('<agent_name>').length - 1),
    correct: position === 0,
    split: pair.split ?? ('train' as const),
  })),
);
const trained = Promise.all(
  (['linear', 'mlp'] as const).map((kind) =>
    trainRewardModel(pairs, { head: kind === 'mlp' ? { kind, hidden: 6, activation: 'tanh' } : { kind }, maxEpochs: 3, encoder: 'words:1-2,chars:3-4@task,structure,task-stats,cross,bits:12', seed: 5 }, { planOutcomes }),
  ),
);

afterAll(async () => {
  for (const { model } of await trained) model.close();
});

describe('safetensors', () => {
  it('round-trips tensors and metadata, with an 8-byte aligned header', () => {
    const bytes = writeSafetensors(
      [
        ['a', { dtype: 'F64', shape: [2, 2], data: Float64Array.of(1, -2, 3.5, 1e-300) }],
        ['b', { dtype: 'F32', shape: [3], data: Float32Array.of(0.5, 2, -1) }],
      ],
      { note: 'hé' },
    );
    expect(Number(bytes.readBigUInt64LE(0)) % 8).toBe(0);
    const file = readSafetensors(bytes);
    expect(file.metadata).toEqual({ note: 'hé' });
    expect(Array.from(file.tensors.get('a')!.data)).toEqual([1, -2, 3.5, 1e-300]);
    expect(file.tensors.get('b')!.shape).toEqual([3]);
    expect(JSON.parse(bytes.subarray(8, 8 + Number(bytes.readBigUInt64LE(0))).toString())).toMatchObject({ a: { dtype: 'F64', shape: [2, 2], data_offsets: [0, 32] } });
  });
});

describe('model files', () => {
  it('save -> load gives identical scores for both heads, and keeps the metadata', async () => {
    for (const { model, dataset } of await trained) {
      const path = join(directory, `${model.head.config.kind}.safetensors`);
      await saveRewardModel(model, path, { metrics: { note: 'evaluated' } });
      const loaded = await loadRewardModel(path);
      const question = pairs[0]!.question;
      expect(await loaded.score(question, probes)).toEqual(await model.score(question, probes));
      // The bootstrap heads (5 by default) travel in the same file.
      expect(loaded.ensembleSize).toBe(5);
      expect(await loaded.scoreMembers(question, probes)).toEqual(await model.scoreMembers(question, probes));
      expect(await loaded.scorePrefix(question, probes[0]!, 1)).toBe(await model.scorePrefix(question, probes[0]!, 1));
      // The cost head and the calibration (format 3) travel in the same file too.
      expect(loaded.canEstimate).toBe(true);
      expect(loaded.calibration).toEqual(model.calibration);
      expect(await loaded.estimate(question, probes)).toEqual(await model.estimate(question, probes));
      expect(loaded.provenance.metrics).toHaveProperty('calibration.train.ece');
      expect(loaded.provenance.trainingDataHash).toBe(dataset.dataHash);
      expect(loaded.provenance.seed).toBe(5);
      expect(loaded.provenance.metrics).toMatchObject({ note: 'evaluated', bestEpoch: 3 });
      expect(loaded.pipeline.spec).toEqual(model.pipeline.spec);
      loaded.close();
    }
  });

  it('refuses a corrupted file with a message that says so', async () => {
    const path = join(directory, 'linear.safetensors');
    const bytes = readFileSync(path);
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 3]! ^= 0xff;
    writeFileSync(join(directory, 'flipped.safetensors'), flipped);
    await expect(loadRewardModel(join(directory, 'flipped.safetensors'))).rejects.toThrow(/failed its integrity check.*corrupted or was edited, restore or retrain/);
    writeFileSync(join(directory, 'truncated.safetensors'), bytes.subarray(0, bytes.length - 100));
    await expect(loadRewardModel(join(directory, 'truncated.safetensors'))).rejects.toThrow(/is not a valid safetensors file: .*truncated or corrupted/);
    await expect(loadRewardModel(join(directory, 'missing.safetensors'))).rejects.toThrow(/cannot read model file .*ENOENT.*orchrm rm train --out/);
  });

  it('refuses to save a model whose training diverged (a NaN or infinite weight), and writes nothing', async () => {
    const { model } = await trainRewardModel(pairs.slice(0, 40), { maxEpochs: 1, encoder: 'structure,bits:8', seed: 3 });
    try {
      model.head.tensors[0]!.values[2] = Number.NaN;
      const path = join(directory, 'diverged.safetensors');
      await expect(saveRewardModel(model, path)).rejects.toThrow(/holds NaN in tensor linear\.weight at index 2: its training diverged, so nothing was written/);
      expect(existsSync(path)).toBe(false);
    } finally {
      model.close();
    }
  });

  it('refuses another format version and a foreign safetensors file', async () => {
    const file = readSafetensors(readFileSync(join(directory, 'linear.safetensors')));
    const rewrite = (metadata: Record<string, string>, name: string) => {
      writeFileSync(join(directory, name), writeSafetensors([...file.tensors.entries()], metadata));
      return loadRewardModel(join(directory, name));
    };
    await expect(rewrite({ ...file.metadata, format_version: String(MODEL_FORMAT_VERSION + 1) }, 'newer.safetensors')).rejects.toThrow(
      `has format version ${MODEL_FORMAT_VERSION + 1}, but this orchrm reads versions 1, 2 and 3; upgrade orchrm to read it`,
    );
    await expect(rewrite({ ...file.metadata, format_version: '0' }, 'older.safetensors')).rejects.toThrow(/retrain it with `orchrm rm train`/);
    await expect(rewrite({ format: 'pt' }, 'foreign.safetensors')).rejects.toThrow(/not an orchrm reward model/);
    const head = JSON.parse(file.metadata.head_config!) as Record<string, unknown>;
    await expect(rewrite({ ...file.metadata, head_config: JSON.stringify({ ...head, kind: 'mlp', hidden: 2 }) }, 'mismatch.safetensors')).rejects.toThrow(/does not match its config, retrain it/);
    // Fewer heads declared than stored, or an absurd count, is refused before anything is allocated for them.
    await expect(rewrite({ ...file.metadata, ensemble_size: '4' }, 'fewer.safetensors')).rejects.toThrow(/unexpected tensor "ensemble\.4\.linear\.weight" .* with 4 bootstrap heads/);
    await expect(rewrite({ ...file.metadata, ensemble_size: '1000000' }, 'many.safetensors')).rejects.toThrow(/ensemble_size "1000000", not an integer from 0 to 32/);
    // The cost head and the calibration: their metadata must be what orchrm writes, and their tensors must match it.
    await expect(rewrite({ ...file.metadata, cost_head: '{"kind":"mlp","target":"tokens"}' }, 'cost-kind.safetensors')).rejects.toThrow(/cost_head metadata .* this orchrm reads only/);
    const { cost_head: _costHead, ...withoutCostHead } = file.metadata;
    await expect(rewrite(withoutCostHead, 'cost-undeclared.safetensors')).rejects.toThrow(/unexpected tensor "cost\.linear\.weight"/);
    const withoutCalibrationTensor = [...file.tensors.entries()].filter(([name]) => name !== 'calibration.platt');
    writeFileSync(join(directory, 'no-platt.safetensors'), writeSafetensors(withoutCalibrationTensor, file.metadata));
    await expect(loadRewardModel(join(directory, 'no-platt.safetensors'))).rejects.toThrow(/lacks tensor calibration\.platt/);
  });

  it('reads a version 1 file (no bootstrap heads) and scores as it did', async () => {
    // Written by orchrm before issue 21 (src/rm/test-fixtures/model-v1.safetensors): encoder shape, 2^10 features, linear head.
    const model = await loadRewardModel(new URL('./test-fixtures/model-v1.safetensors', import.meta.url).pathname);
    const plan = (agent: string) => JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent, input: '', params: {} }], edges: [], answer: 'A' });
    expect(await model.score('What is 3 times 4?', [plan('sc'), plan('cot'), plan('search')])).toEqual([-0.030906379858921383, -0.2990650631091363, -0.11963552395927485]);
    expect(model.ensembleSize).toBe(0);
    expect(await model.scoreMembers('What is 3 times 4?', [plan('sc')])).toEqual([[]]);
    expect(model.canEstimate).toBe(false);
    model.close();
  });

  it('registers the model in the store', async () => {
    const { model } = (await trained)[0]!;
    const store = openStore(join(directory, 'store.db'));
    const id = registerRewardModel(store, model, join(directory, 'linear.safetensors'));
    const [record] = listModels(store, 'bt-linear');
    expect(record).toMatchObject({ id, kind: 'bt-linear', metadata: { trainingDataHash: model.provenance.trainingDataHash, seed: 5 } });
    expect(listModels(store, 'bt-mlp')).toEqual([]);
    store.close();
  });
});
