import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../core/index.js';
import type { EncoderSpec } from './features/encoder-spec.js';
import type { HeadConfig } from './heads/head-config.js';
import { loadRewardModel, MODEL_FORMAT, MODEL_FORMAT_VERSION } from './model-file.js';

/**
 * Issue 23 acceptance: random model files (headers, shapes, dtypes, offsets, sizes, metadata,
 * truncations, flipped bytes, non-finite weights; with and without issue 22's cost head and calibration) are each either refused with a UserError that
 * says what is wrong (never a stack trace, a RangeError or a hang) or loaded within a memory bound:
 * the head's tensors hold no more bytes than the file, and the process's array buffers grow by
 * at most a small multiple of the file's size.
 */

const directory = mkdtempSync(join(tmpdir(), 'orchrm-model-fuzz-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const PLAN = '{"dom": "low", "nodes": [{"id": "A", "agent": "cot", "input": ""}], "answer": "A"}';

interface Entry {
  dtype: unknown;
  shape: unknown;
  data_offsets: unknown;
}

/** A file as parts, so a mutation can break any one of them. */
interface Draft {
  metadata: Record<string, unknown>;
  entries: [string, Entry][];
  data: Buffer;
  /** Overrides the 8-byte header length. */
  headerLength?: bigint;
  /** Cuts the file to this fraction of its length. */
  truncateAt?: number;
  /** XORs one byte (position as a fraction of the file) with 0xff. */
  flipAt?: number;
}

function assemble(draft: Draft): Buffer {
  const header = JSON.stringify({ __metadata__: draft.metadata, ...Object.fromEntries(draft.entries) });
  const headerBytes = Buffer.from(header + ' '.repeat((8 - (Buffer.byteLength(header) % 8)) % 8));
  const prefix = Buffer.alloc(8);
  prefix.writeBigUInt64LE(draft.headerLength ?? BigInt(headerBytes.length));
  let bytes = Buffer.concat([prefix, headerBytes, draft.data]);
  if (draft.truncateAt !== undefined) bytes = bytes.subarray(0, Math.floor(bytes.length * draft.truncateAt));
  if (draft.flipAt !== undefined && bytes.length > 0) bytes[Math.min(bytes.length - 1, Math.floor(bytes.length * draft.flipAt))]! ^= 0xff;
  return bytes;
}

/** Optional parts of a format 3 file: the cost head and the calibration. */
interface Parts {
  costHead: boolean;
  calibration: boolean;
}

/** The tensors a model of these configs stores (written out here, independently of the loader). */
function layoutOf(spec: EncoderSpec, head: HeadConfig, parts: Parts): { name: string; shape: number[]; dtype: 'F64' | 'F32' }[] {
  let dimension = 2 ** spec.hashBits;
  for (const feature of spec.features) if (feature.kind === 'embed') dimension += feature.dimensions * (feature.of === 'both' ? 2 : 1);
  const optional = [
    ...(parts.costHead ? [{ name: 'cost.linear.weight', shape: [dimension, 1], dtype: 'F64' as const }, { name: 'cost.linear.bias', shape: [1], dtype: 'F64' as const }] : []),
    ...(parts.calibration ? [{ name: 'calibration.platt', shape: [2], dtype: 'F64' as const }] : []),
  ];
  if (head.kind === 'linear') return [{ name: 'linear.weight', shape: [dimension, 1], dtype: 'F64' }, { name: 'linear.bias', shape: [1], dtype: 'F64' }, ...optional];
  return [
    { name: 'mlp.w1', shape: [dimension, head.hidden], dtype: head.firstLayerPrecision === 'float32' ? 'F32' : 'F64' },
    { name: 'mlp.b1', shape: [head.hidden], dtype: 'F64' },
    { name: 'mlp.w2', shape: [head.hidden], dtype: 'F64' },
    { name: 'mlp.b2', shape: [1], dtype: 'F64' },
    ...optional,
  ];
}

/** A model file that loads: the configs' tensors with finite values, and the right hash. */
function validDraft(spec: EncoderSpec, head: HeadConfig, values: number[], parts: Parts): Draft {
  const layout = layoutOf(spec, head, parts);
  const entries: [string, Entry][] = [];
  const chunks: Buffer[] = [];
  let offset = 0;
  for (const [tensorIndex, tensor] of layout.entries()) {
    const count = tensor.shape.reduce((product, size) => product * size, 1);
    const array = tensor.dtype === 'F64' ? new Float64Array(count) : new Float32Array(count);
    for (let index = 0; index < count; index++) array[index] = values[(index + tensorIndex) % values.length] ?? 0;
    const bytes = Buffer.from(array.buffer);
    entries.push([tensor.name, { dtype: tensor.dtype, shape: tensor.shape, data_offsets: [offset, offset + bytes.length] }]);
    chunks.push(bytes);
    offset += bytes.length;
  }
  const data = Buffer.concat(chunks);
  return {
    metadata: {
      format: MODEL_FORMAT,
      format_version: String(MODEL_FORMAT_VERSION),
      name: 'fuzzed',
      encoder_spec: JSON.stringify(spec),
      head_config: JSON.stringify(head),
      training_config: '{}',
      metrics: '{}',
      seed: '1',
      ...(parts.costHead && { cost_head: '{"kind":"linear","target":"log1p-execution-tokens"}' }),
      ...(parts.calibration && { calibration: '{"method":"platt"}' }),
      tensors_sha256: createHash('sha256').update(data).digest('hex'),
    },
    entries,
    data,
  };
}

const specArbitrary: fc.Arbitrary<EncoderSpec> = fc.record({
  hashBits: fc.integer({ min: 8, max: 10 }),
  features: fc.constantFrom<EncoderSpec['features']>(
    [{ kind: 'structure' }],
    [{ kind: 'shape' }, { kind: 'words', min: 1, max: 2, of: 'both' }],
    [{ kind: 'structure' }, { kind: 'task-stats' }, { kind: 'cross' }],
    [{ kind: 'shape' }, { kind: 'route' }, { kind: 'popularity', table: { tasks: 3, names: ['Westmoor'], counts: [2] } }],
    [{ kind: 'embed', model: 'm', dimensions: 4, of: 'plan' }],
  ),
});
const headArbitrary: fc.Arbitrary<HeadConfig> = fc.oneof(
  fc.constant<HeadConfig>({ kind: 'linear' }),
  fc.record({
    kind: fc.constant('mlp' as const),
    hidden: fc.integer({ min: 1, max: 4 }),
    activation: fc.constantFrom('relu' as const, 'tanh' as const),
    initScale: fc.constant(0.1),
    firstLayerPrecision: fc.constantFrom('float32' as const, 'float64' as const),
  }),
);
/** Sizes a hostile header may claim: small, huge, negative, fractional, not numbers at all. */
const claimedSize = fc.oneof(fc.integer({ min: 0, max: 4096 }), fc.constantFrom(2 ** 24, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 64, -1, 1.5, Number.MAX_SAFE_INTEGER), fc.string({ maxLength: 4 }), fc.constant(null));
const jsonish = fc.oneof(fc.string({ maxLength: 40 }), fc.json({ maxDepth: 3 }), fc.constantFrom('{"hashBits": 24, "features": [{"kind": "structure"}]}', '{"kind": "mlp", "hidden": 1024}', '{"kind": "mlp", "hidden": 1024, "firstLayerPrecision": "float64"}'));

const partsArbitrary: fc.Arbitrary<Parts> = fc.record({ costHead: fc.boolean(), calibration: fc.boolean() });

type Mutation = (draft: Draft) => Draft;
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant<Mutation>((draft) => draft),
  fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map<Mutation>((headerLength) => (draft) => ({ ...draft, headerLength })),
  fc.double({ min: 0, max: 1, noNaN: true }).map<Mutation>((truncateAt) => (draft) => ({ ...draft, truncateAt })),
  fc.double({ min: 0, max: 1, noNaN: true }).map<Mutation>((flipAt) => (draft) => ({ ...draft, flipAt })),
  fc.tuple(fc.nat(), fc.array(claimedSize, { maxLength: 4 })).map<Mutation>(([which, shape]) => (draft) => withEntry(draft, which, { shape })),
  fc.tuple(fc.nat(), fc.oneof(fc.constantFrom('F64', 'F32', 'F16', 'I64', 'BOOL'), fc.string({ maxLength: 5 }))).map<Mutation>(([which, dtype]) => (draft) => withEntry(draft, which, { dtype })),
  fc.tuple(fc.nat(), fc.array(claimedSize, { minLength: 0, maxLength: 3 })).map<Mutation>(([which, offsets]) => (draft) => withEntry(draft, which, { data_offsets: offsets })),
  fc.tuple(fc.string({ maxLength: 12 }), claimedSize, claimedSize).map<Mutation>(([name, size, end]) => (draft) => ({ ...draft, entries: [...draft.entries, [name, { dtype: 'F64', shape: [size], data_offsets: [0, end] }]] })),
  fc.tuple(fc.constantFrom('format', 'format_version', 'encoder_spec', 'head_config', 'training_config', 'metrics', 'seed', 'trained_on', 'name', 'tensors_sha256', 'cost_head', 'calibration'), fc.oneof(jsonish, fc.integer(), fc.constant(null))).map<Mutation>(
    ([key, value]) => (draft) => ({ ...draft, metadata: { ...draft.metadata, [key]: value } }),
  ),
  fc.tuple(fc.nat(), fc.constantFrom(NaN, Infinity, -Infinity)).map<Mutation>(([which, value]) => (draft) => withNonFinite(draft, which, value)),
  fc.uint8Array({ maxLength: 200 }).map<Mutation>((bytes) => (draft) => ({ ...draft, entries: [], metadata: {}, data: Buffer.from(bytes), headerLength: BigInt(bytes[0] ?? 0) })),
);

function withEntry(draft: Draft, which: number, change: Partial<Entry>): Draft {
  if (draft.entries.length === 0) return draft;
  const index = which % draft.entries.length;
  return { ...draft, entries: draft.entries.map(([name, entry], position) => [name, position === index ? { ...entry, ...change } : entry]) };
}

/** One weight made non-finite, the hash recomputed so only the value check can catch it. */
function withNonFinite(draft: Draft, which: number, value: number): Draft {
  const data = Buffer.from(draft.data);
  const [, entry] = draft.entries[which % Math.max(1, draft.entries.length)] ?? [];
  if (entry === undefined) return draft;
  const [begin] = entry.data_offsets as [number, number];
  if (entry.dtype === 'F64') data.writeDoubleLE(value, begin);
  else data.writeFloatLE(value, begin);
  return { ...draft, data, metadata: { ...draft.metadata, tensors_sha256: createHash('sha256').update(data).digest('hex') } };
}

describe('loadRewardModel on random files', () => {
  it('refuses every malformed file with a UserError, and loads the rest within a memory bound', async () => {
    let runs = 0;
    const outcomes = { loaded: 0, refused: 0, estimated: 0 };
    await fc.assert(
      fc.asyncProperty(specArbitrary, headArbitrary, fc.array(fc.double({ min: -4, max: 4, noNaN: true }), { minLength: 1, maxLength: 8 }), fc.array(mutation, { maxLength: 2 }), partsArbitrary, async (spec, head, values, mutations, parts) => {
        const draft = mutations.reduce((current, mutate) => mutate(current), validDraft(spec, head, values, parts));
        const path = join(directory, `fuzz-${runs++}.safetensors`);
        writeFileSync(path, assemble(draft));
        const fileBytes = statSync(path).size;
        const before = process.memoryUsage().arrayBuffers;
        let outcome: unknown;
        try {
          outcome = await loadRewardModel(path);
        } catch (error) {
          outcome = error;
        }
        const grown = process.memoryUsage().arrayBuffers - before;
        if (outcome instanceof Error) {
          expect(outcome, outcome.stack).toBeInstanceOf(UserError);
          expect(outcome.message).not.toMatch(/\n\s+at /);
          outcomes.refused++;
        } else {
          const model = outcome as Awaited<ReturnType<typeof loadRewardModel>>;
          const tensorBytes = [model.head, ...model.ensemble, ...(model.costHead ? [model.costHead] : [])].flatMap((member) => member.tensors).reduce((sum, tensor) => sum + tensor.values.byteLength, 0);
          expect(tensorBytes).toBeLessThanOrEqual(fileBytes);
          expect((await model.score('What is 2 + 3?', [PLAN])).every(Number.isFinite)).toBe(true);
          if (model.canEstimate) {
            const [estimate] = await model.estimate('What is 2 + 3?', [PLAN]);
            expect(Number.isFinite(estimate!.executionTokens) && estimate!.successProbability >= 0 && estimate!.successProbability <= 1).toBe(true);
            outcomes.estimated++;
          }
          model.close();
          outcomes.loaded++;
        }
        // The head (with its gradient buffers), the encoder's scratch row and the file's bytes: a few times the file, never what a header claims.
        expect(grown).toBeLessThan(16 * 1024 * 1024 + 16 * fileBytes);
      }),
      { numRuns: 400, seed: 23 },
    );
    // Both outcomes must occur, or the property says nothing about one of them.
    expect(outcomes.loaded).toBeGreaterThan(20);
    expect(outcomes.refused).toBeGreaterThan(200);
    expect(outcomes.estimated).toBeGreaterThan(5);
  });
});
