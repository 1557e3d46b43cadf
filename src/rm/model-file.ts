import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ORCHRM_VERSION, stableStringify, UserError, zodIssues } from '../core/index.js';
import type { BlockCatalog } from '../plan/index.js';
import { EncoderSpecSchema } from './features/encoder-spec.js';
import { FeaturePipeline, type FeaturePipelineOptions } from './features/feature-pipeline.js';
import { createHead } from './heads/create-head.js';
import { HeadConfigSchema } from './heads/head-config.js';
import type { ParameterArray } from './heads/reward-head.js';
import { readSafetensors, SafetensorsFormatError, writeSafetensors, type SafetensorsDtype, type SafetensorsFile, type SafetensorsTensor } from './safetensors.js';
import { TrainedRewardModel, TrainingSourceSchema, type RewardModelProvenance, type TrainingSource } from './trained-reward-model.js';

/** `format` metadata of our model files. */
export const MODEL_FORMAT = 'orchrm.bt-reward-model';
/**
 * Bumped whenever the layout or the meaning of a tensor or feature changes. Version 2 (issue 21)
 * added the bootstrap heads: tensors `ensemble.<k>.<name>` beside the model head's, and metadata
 * `ensemble_size`. Version 1 files (no heads) are still read, and score as they did.
 */
export const MODEL_FORMAT_VERSION = 2;

/** Format versions this orchrm reads. */
const READABLE_VERSIONS: ReadonlySet<number> = new Set([1, 2]);

/** The stored name of tensor `name` of ensemble head `member`. */
const ensembleTensorName = (member: number, name: string) => `ensemble.${member}.${name}`;

export interface SaveRewardModelOptions {
  /** Metrics to store, merged over the model's own (e.g. an evaluation run after training). */
  metrics?: Record<string, unknown>;
}

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const dtypeOf = (values: ParameterArray): SafetensorsDtype => (values instanceof Float32Array ? 'F32' : 'F64');

/**
 * Writes a trained model as `.safetensors`: its head tensors (F64, or F32 for a float32 layer) and metadata strings
 * `format`, `format_version`, `orchrm_version`, `name`, `encoder_spec`, `head_config` (JSON), `ensemble_size`
 * (bootstrap heads, stored as tensors `ensemble.<k>.<name>`),
 * `training_data_hash`, `seed`, `training_config`, `metrics`, `trained_on` (JSON, optional: the
 * pair dataset and the scenarios or task files it came from) and `tensors_sha256` (of
 * the data section, checked on load). Written to a temporary file and renamed, so a crash
 * never leaves half a model under `path`.
 *
 * @example
 * await saveRewardModel(model, 'models/rm.safetensors', { metrics: evaluation });
 */
export async function saveRewardModel(model: TrainedRewardModel, path: string, options: SaveRewardModelOptions = {}): Promise<void> {
  const { provenance } = model;
  const tensors = [
    ...model.head.tensors.map((tensor): [string, SafetensorsTensor] => [tensor.name, { dtype: dtypeOf(tensor.values), shape: tensor.shape, data: tensor.values }]),
    ...model.ensemble.flatMap((head, member) => head.tensors.map((tensor): [string, SafetensorsTensor] => [ensembleTensorName(member, tensor.name), { dtype: dtypeOf(tensor.values), shape: tensor.shape, data: tensor.values }])),
  ];
  const metadata: Record<string, string> = {
    format: MODEL_FORMAT,
    format_version: String(MODEL_FORMAT_VERSION),
    orchrm_version: ORCHRM_VERSION,
    name: model.name,
    encoder_spec: stableStringify(model.pipeline.spec),
    head_config: stableStringify(model.head.config),
    ensemble_size: String(model.ensemble.length),
    training_data_hash: provenance.trainingDataHash ?? '',
    seed: provenance.seed === undefined ? '' : String(provenance.seed),
    training_config: stableStringify(provenance.trainingConfig ?? {}),
    metrics: stableStringify({ ...provenance.metrics, ...options.metrics }),
    // Added in orchrm 0.1 without a format bump: optional, and files without it still load.
    ...(provenance.trainedOn !== undefined && { trained_on: stableStringify(provenance.trainedOn) }),
  };
  // Hash the data section exactly as written: write once without the hash to get its bytes.
  const unsigned = writeSafetensors(tensors, metadata);
  const dataOffset = 8 + Number(unsigned.readBigUInt64LE(0));
  const bytes = writeSafetensors(tensors, { ...metadata, tensors_sha256: sha256Hex(unsigned.subarray(dataOffset)) });
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, path);
}

export interface LoadRewardModelOptions {
  /** Embedding endpoint and cache for models with `embed` features. */
  features?: FeaturePipelineOptions;
  catalog?: BlockCatalog;
}

function parseJsonField(file: string, metadata: Record<string, string>, key: string): unknown {
  const text = metadata[key];
  if (text === undefined) throw new UserError(`model file ${file} has no ${key} metadata; it was not written by orchrm rm train, retrain the model`);
  try {
    return JSON.parse(text);
  } catch {
    throw new UserError(`model file ${file} has unreadable ${key} metadata (not JSON); the file is corrupted, retrain or restore it`);
  }
}

/** The optional `trained_on` metadata; files written before it existed have none. */
function trainedOnField(path: string, metadata: Record<string, string>): { trainedOn?: TrainingSource } {
  if (metadata.trained_on === undefined) return {};
  const parsed = TrainingSourceSchema.safeParse(parseJsonField(path, metadata, 'trained_on'));
  if (!parsed.success) throw new UserError(`model file ${path} has trained_on metadata this orchrm does not understand (${zodIssues(parsed.error)[0]?.message}); the file is corrupted, retrain or restore it`);
  return { trainedOn: parsed.data };
}

/** Bootstrap heads in the file: `ensemble_size` (version 2), none in version 1 files. */
function ensembleSizeField(path: string, metadata: Record<string, string>): number {
  const text = metadata.ensemble_size;
  if (text === undefined || text === '') return 0;
  const size = Number(text);
  // Bounded before anything is allocated for it (BtConfig allows at most 32).
  if (!Number.isInteger(size) || size < 0 || size > 32) throw new UserError(`model file ${path} has ensemble_size ${JSON.stringify(text)}, not an integer from 0 to 32; the file is corrupted, retrain or restore it`);
  return size;
}

function checkHeader(path: string, parsed: SafetensorsFile): void {
  const { metadata } = parsed;
  if (metadata.format !== MODEL_FORMAT) {
    throw new UserError(`${path} is a safetensors file but not an orchrm reward model (format ${JSON.stringify(metadata.format ?? null)}); for a model trained elsewhere, serve it and use a remote reward model`);
  }
  const version = Number(metadata.format_version);
  if (!READABLE_VERSIONS.has(version)) {
    const hint = version > MODEL_FORMAT_VERSION ? 'upgrade orchrm to read it' : 'retrain it with `orchrm rm train`';
    throw new UserError(`model file ${path} has format version ${metadata.format_version ?? '(none)'}, but this orchrm reads versions ${[...READABLE_VERSIONS].join(' and ')}; ${hint}`);
  }
  const actual = sha256Hex(parsed.dataBytes);
  if (metadata.tensors_sha256 !== actual) {
    throw new UserError(`model file ${path} failed its integrity check (tensor bytes hash to ${actual.slice(0, 12)}..., the file records ${(metadata.tensors_sha256 ?? '(none)').slice(0, 12)}...); the file is corrupted or was edited, restore or retrain it`);
  }
}

/**
 * Reads a model written by `saveRewardModel`, checking the format, its version, the integrity
 * hash of the tensor bytes and every tensor's shape against the stored configuration; any
 * mismatch is a UserError saying what is wrong and what to do.
 *
 * @example
 * const model = await loadRewardModel('models/rm.safetensors');
 * await model.score(question, plans);
 */
export async function loadRewardModel(path: string, options: LoadRewardModelOptions = {}): Promise<TrainedRewardModel> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new UserError(`cannot read model file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); pass the path of a model written by \`orchrm rm train --out\``, { cause: error });
  }
  let parsed: SafetensorsFile;
  try {
    parsed = readSafetensors(bytes);
  } catch (error) {
    if (error instanceof SafetensorsFormatError) throw new UserError(`model file ${path} is not a valid safetensors file: ${error.message}; it is truncated or corrupted, restore or retrain it`, { cause: error });
    throw error;
  }
  checkHeader(path, parsed);
  const { metadata } = parsed;
  const spec = EncoderSpecSchema.safeParse(parseJsonField(path, metadata, 'encoder_spec'));
  const headConfig = HeadConfigSchema.safeParse(parseJsonField(path, metadata, 'head_config'));
  if (!spec.success || !headConfig.success) {
    const issues = [
      ...(spec.success ? [] : zodIssues(spec.error).map((issue) => ({ ...issue, path: `encoder_spec.${issue.path}` }))),
      ...(headConfig.success ? [] : zodIssues(headConfig.error).map((issue) => ({ ...issue, path: `head_config.${issue.path}` }))),
    ];
    const named = issues.slice(0, 3).map((issue) => `${issue.path.replace(/\.$/, '')}: ${issue.message}`).join('; ');
    throw new UserError(`model file ${path} has an encoder spec or head config this orchrm does not understand (${named}); retrain the model with this version`);
  }
  const pipeline = new FeaturePipeline(spec.data, options.features);
  const seed = metadata.seed === '' || metadata.seed === undefined ? 0 : Number(metadata.seed);
  const ensembleSize = ensembleSizeField(path, metadata);
  const head = createHead(headConfig.data, pipeline.dimension, seed);
  const ensemble = Array.from({ length: ensembleSize }, () => createHead(headConfig.data, pipeline.dimension, seed));
  const expected = new Map([
    ...head.tensors.map((tensor) => [tensor.name, tensor] as const),
    ...ensemble.flatMap((member, index) => member.tensors.map((tensor) => [ensembleTensorName(index, tensor.name), tensor] as const)),
  ]);
  for (const name of parsed.tensors.keys()) if (!expected.has(name)) throw new UserError(`model file ${path} has an unexpected tensor ${name} for a ${headConfig.data.kind} head with ${ensembleSize} bootstrap heads; the file does not match its config, retrain it`);
  for (const [name, tensor] of expected) {
    const stored = parsed.tensors.get(name);
    if (stored === undefined) throw new UserError(`model file ${path} lacks tensor ${name}; retrain the model`);
    const dtype = dtypeOf(tensor.values);
    if (stored.shape.join(',') !== tensor.shape.join(',') || stored.dtype !== dtype) {
      throw new UserError(`model file ${path}: tensor ${name} has shape [${stored.shape.join(', ')}] (${stored.dtype}), but its encoder spec and head config need [${tensor.shape.join(', ')}] (${dtype}); the file does not match its config, retrain it`);
    }
    tensor.values.set(stored.data);
  }
  const provenance: RewardModelProvenance = {
    ...(metadata.training_data_hash ? { trainingDataHash: metadata.training_data_hash } : {}),
    ...(metadata.seed ? { seed } : {}),
    trainingConfig: parseJsonField(path, metadata, 'training_config') as Record<string, unknown>,
    metrics: parseJsonField(path, metadata, 'metrics') as Record<string, unknown>,
    ...trainedOnField(path, metadata),
  };
  return new TrainedRewardModel(pipeline, head, { name: metadata.name ?? `orchrm-bt-${headConfig.data.kind}`, provenance, ensemble, ...(options.catalog ? { catalog: options.catalog } : {}) });
}
