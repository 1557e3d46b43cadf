import { createHash } from 'node:crypto';
import { type FileHandle, mkdir, open, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ORCHRM_VERSION, OrchrmError, stableStringify, UserError, zodIssues } from '../core/index.js';
import type { BlockCatalog } from '../plan/index.js';
import { EMBEDDINGS_ENDPOINT_FIX, EncoderSpecSchema, endpointFieldsOf, featureDimension, type EncoderSpec } from './features/encoder-spec.js';
import { FeaturePipeline, type FeaturePipelineOptions } from './features/feature-pipeline.js';
import { checkHeadSize, createHead, headTensorLayout } from './heads/create-head.js';
import { HeadConfigSchema, type HeadConfig } from './heads/head-config.js';
import type { ParameterArray } from './heads/reward-head.js';
import { fromLittleEndian, readExactly, readSafetensorsHeader, SafetensorsFormatError, writeSafetensors, type SafetensorsDtype, type SafetensorsEntry, type SafetensorsHeader, type SafetensorsTensor } from './safetensors.js';
import type { PlattCalibration } from './calibration.js';
import { COST_TARGET } from './cost-head.js';
import { TemplateRouter, TemplateRouterDataSchema } from './template-router.js';
import { TrainedRewardModel, TrainingSourceSchema, type RewardModelProvenance, type TrainingSource } from './trained-reward-model.js';

/** `format` metadata of our model files. */
export const MODEL_FORMAT = 'orchrm.bt-reward-model';
/**
 * Bumped whenever the layout or the meaning of a tensor or feature changes. Version 2 (issue 21)
 * added the bootstrap heads: tensors `ensemble.<k>.<name>` beside the model head's, and metadata
 * `ensemble_size`. Version 3 (issue 22) added the optional cost head (metadata `cost_head`,
 * tensors `cost.linear.weight` and `cost.linear.bias`) and the optional calibration (metadata
 * `calibration`, tensor `calibration.platt` [slope, intercept]). Version 1 and 2 files (no heads,
 * no cost head) are still read, and score as they did. Version 3 files may also hold a template
 * router (metadata `template_router`, JSON; issue 21, fourth round), added without a bump: it is
 * optional, files without it load as before, and an orchrm that predates it ignores it.
 */
export const MODEL_FORMAT_VERSION = 3;

/** Format versions this orchrm reads. */
const READABLE_VERSIONS: ReadonlySet<number> = new Set([1, 2, 3]);

/** `cost_head` metadata: the cost head is linear over the model's features and predicts `COST_TARGET`. */
const COST_HEAD_METADATA = stableStringify({ kind: 'linear', target: COST_TARGET });
/** `calibration` metadata: Platt scaling, its two parameters in tensor `calibration.platt`. */
const CALIBRATION_METADATA = stableStringify({ method: 'platt' });
const CALIBRATION_TENSOR = 'calibration.platt';
const costTensorName = (name: string) => `cost.${name}`;

/** Most bootstrap heads a file may hold (BtConfig allows at most 32), checked before anything is allocated. */
const MAX_ENSEMBLE_SIZE = 32;

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
 * (bootstrap heads, stored as tensors `ensemble.<k>.<name>`), `cost_head` and `calibration` (when the
 * model has them: tensors `cost.linear.weight`, `cost.linear.bias` and `calibration.platt`),
 * `training_data_hash`, `seed`, `training_config`, `metrics`, `trained_on` (JSON, optional: the
 * pair dataset and the scenarios or task files it came from), `template_router` (JSON, optional:
 * `TemplateRouterData`) and `tensors_sha256` (of
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
    ...(model.costHead?.tensors.map((tensor): [string, SafetensorsTensor] => [costTensorName(tensor.name), { dtype: dtypeOf(tensor.values), shape: tensor.shape, data: tensor.values }]) ?? []),
    ...(model.calibration === undefined ? [] : [[CALIBRATION_TENSOR, { dtype: 'F64', shape: [2], data: Float64Array.of(model.calibration.slope, model.calibration.intercept) }] as [string, SafetensorsTensor]]),
  ];
  if (model.costHead !== undefined && model.costHead.config.kind !== 'linear') throw new UserError(`the model's cost head is a ${model.costHead.config.kind} head; model files hold a linear cost head only`);
  // A diverged training run is refused here rather than written as a file every loader refuses.
  for (const [name, { data }] of tensors) {
    const bad = data.findIndex((value) => !Number.isFinite(value));
    if (bad !== -1) {
      throw new UserError(`the model to save holds ${data[bad]} in tensor ${name} at index ${bad}: its training diverged, so nothing was written to ${path}; train again with a lower learning rate or more L2 (BtConfig learningRate, l2)`);
    }
  }
  const metadata: Record<string, string> = {
    format: MODEL_FORMAT,
    format_version: String(MODEL_FORMAT_VERSION),
    orchrm_version: ORCHRM_VERSION,
    name: model.name,
    encoder_spec: stableStringify(model.pipeline.spec),
    head_config: stableStringify(model.head.config),
    ensemble_size: String(model.ensemble.length),
    ...(model.costHead !== undefined && { cost_head: COST_HEAD_METADATA }),
    ...(model.calibration !== undefined && { calibration: CALIBRATION_METADATA }),
    training_data_hash: provenance.trainingDataHash ?? '',
    seed: provenance.seed === undefined ? '' : String(provenance.seed),
    training_config: stableStringify(provenance.trainingConfig ?? {}),
    metrics: stableStringify({ ...provenance.metrics, ...options.metrics }),
    // Added in orchrm 0.1 without a format bump: optional, and files without it still load.
    ...(provenance.trainedOn !== undefined && { trained_on: stableStringify(provenance.trainedOn) }),
    ...(model.templateRouter !== undefined && { template_router: stableStringify(model.templateRouter.data) }),
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

/** The optional `template_router` metadata, validated (bounded sizes, finite weights, one weight per fact). */
function templateRouterField(path: string, metadata: Record<string, string>): { templateRouter?: TemplateRouter } {
  if (metadata.template_router === undefined) return {};
  const parsed = TemplateRouterDataSchema.safeParse(parseJsonField(path, metadata, 'template_router'));
  if (!parsed.success) {
    const issue = zodIssues(parsed.error)[0];
    throw new UserError(`model file ${path} has template_router metadata this orchrm does not understand (${issue?.path ? `${issue.path}: ` : ''}${issue?.message}); the file is corrupted or was edited, restore or retrain it`);
  }
  return { templateRouter: new TemplateRouter(parsed.data) };
}

/** Bootstrap heads in the file: `ensemble_size` (version 2), none in version 1 files. */
function ensembleSizeField(path: string, metadata: Record<string, string>): number {
  const text = metadata.ensemble_size;
  if (text === undefined || text === '') return 0;
  const size = Number(text);
  if (!Number.isInteger(size) || size < 0 || size > MAX_ENSEMBLE_SIZE) {
    throw new UserError(`model file ${path} has ensemble_size ${JSON.stringify(text.slice(0, 40))}, not an integer from 0 to ${MAX_ENSEMBLE_SIZE}; the file is corrupted, retrain or restore it`);
  }
  return size;
}

/**
 * Which optional parts a file holds: a cost head (`cost_head`) and a calibration (`calibration`).
 * Absent keys mean absent parts (every version 1 and 2 file); a key with any other value than
 * the one this orchrm writes is refused.
 */
function optionalPartsField(path: string, metadata: Record<string, string>): { costHead: boolean; calibration: boolean } {
  const read = (key: 'cost_head' | 'calibration', expected: string) => {
    const text = metadata[key];
    if (text === undefined) return false;
    if (text !== expected) throw new UserError(`model file ${path} has ${key} metadata ${JSON.stringify(text.slice(0, 80))}, but this orchrm reads only ${expected}; the file is corrupted or from a newer orchrm, upgrade orchrm or retrain the model`);
    return true;
  };
  return { costHead: read('cost_head', COST_HEAD_METADATA), calibration: read('calibration', CALIBRATION_METADATA) };
}

function checkFormat(path: string, metadata: Record<string, string>): void {
  if (metadata.format !== MODEL_FORMAT) {
    throw new UserError(`${path} is a safetensors file but not an orchrm reward model (format ${JSON.stringify(metadata.format ?? null).slice(0, 80)}); for a model trained elsewhere, serve it and use a remote reward model`);
  }
  const version = Number(metadata.format_version);
  if (!READABLE_VERSIONS.has(version)) {
    const hint = version > MODEL_FORMAT_VERSION ? 'upgrade orchrm to read it' : 'retrain it with `orchrm rm train`';
    throw new UserError(`model file ${path} has format version ${(metadata.format_version ?? '(none)').slice(0, 40).replace(/[\p{Cc}\p{Cf}]/gu, '?')}, but this orchrm reads versions ${[...READABLE_VERSIONS].join(', ').replace(/, (\d+)$/, ' and $1')}; ${hint}`);
  }
  // The name is printed by serve and rm score: no control characters (terminal escapes) from a file.
  if (metadata.name !== undefined && (metadata.name.length > 200 || /[\p{Cc}\p{Cf}]/u.test(metadata.name))) {
    throw new UserError(`model file ${path} has a name that is not a short printable string (${JSON.stringify(metadata.name.slice(0, 60))}); the file is corrupted or was edited, restore or retrain it`);
  }
}

/** The encoder spec and head config of a model file, validated, before anything is built from them. */
function readConfigs(path: string, metadata: Record<string, string>, version: number): { spec: EncoderSpec; headConfig: HeadConfig } {
  const rawSpec = parseJsonField(path, metadata, 'encoder_spec');
  const endpoint = endpointFieldsOf(rawSpec)[0];
  if (endpoint !== undefined) {
    throw new UserError(
      `model file ${path} names ${endpoint.what} in its encoder spec (${endpoint.path}), and orchrm refuses it: a model file is data anyone can hand out, and it may not choose where requests go or which key they carry. ` +
        `To use the model, ${EMBEDDINGS_ENDPOINT_FIX}, and retrain it with this orchrm (which writes no endpoint), or remove ${endpoint.path} from the file's encoder_spec metadata`,
    );
  }
  const spec = EncoderSpecSchema.safeParse(rawSpec);
  const headConfig = HeadConfigSchema.safeParse(parseJsonField(path, metadata, 'head_config'));
  if (!spec.success || !headConfig.success) {
    const issues = [
      ...(spec.success ? [] : zodIssues(spec.error).map((issue) => ({ ...issue, path: `encoder_spec.${issue.path}` }))),
      ...(headConfig.success ? [] : zodIssues(headConfig.error).map((issue) => ({ ...issue, path: `head_config.${issue.path}` }))),
    ];
    const named = issues.slice(0, 3).map((issue) => `${issue.path.replace(/\.$/, '')}: ${issue.message}`).join('; ');
    throw new UserError(`model file ${path} has an encoder spec or head config this orchrm does not understand (${named}); retrain the model with this version`);
  }
  // Files of format 1 and 2 were trained with the first reading of a task's shape (`taskShape`).
  return { spec: version < 3 ? { ...spec.data, taskShapeVersion: 1 } : spec.data, headConfig: headConfig.data };
}

/**
 * Checks the header's tensors against the tensors the configs need (names, shapes, dtypes) for the
 * model head and `ensembleSize` bootstrap heads, before any of them is allocated: a file can then
 * only make orchrm allocate what its own data section holds. Returns the entries in the order of
 * the heads' tensors (the model head's, then each bootstrap head's).
 */
function matchTensors(path: string, header: SafetensorsHeader, headConfig: HeadConfig, inputDimension: number, ensembleSize: number, parts: { costHead: boolean; calibration: boolean }): SafetensorsEntry[] {
  const layout = headTensorLayout(headConfig, inputDimension);
  const expected = [
    ...layout,
    ...Array.from({ length: ensembleSize }, (_, member) => layout.map((tensor) => ({ ...tensor, name: ensembleTensorName(member, tensor.name) }))).flat(),
    ...(parts.costHead ? headTensorLayout({ kind: 'linear' }, inputDimension).map((tensor) => ({ ...tensor, name: costTensorName(tensor.name) })) : []),
    ...(parts.calibration ? [{ name: CALIBRATION_TENSOR, shape: [2], dtype: 'F64' as const }] : []),
  ];
  const names = new Set(expected.map((tensor) => tensor.name));
  for (const { name } of header.entries) {
    if (!names.has(name)) {
      throw new UserError(`model file ${path} has an unexpected tensor ${JSON.stringify(name.slice(0, 80))} for a ${headConfig.kind} head${ensembleSize > 0 ? ` with ${ensembleSize} bootstrap heads` : ''}; the file does not match its config, retrain it`);
    }
  }
  const byName = new Map(header.entries.map((entry) => [entry.name, entry]));
  return expected.map((tensor) => {
    const stored = byName.get(tensor.name);
    if (stored === undefined) throw new UserError(`model file ${path} lacks tensor ${tensor.name}; retrain the model`);
    if (stored.shape.join(',') !== tensor.shape.join(',') || stored.dtype !== tensor.dtype) {
      throw new UserError(
        `model file ${path}: tensor ${tensor.name} has shape [${stored.shape.join(', ')}] (${stored.dtype}), but its encoder spec and head config need [${tensor.shape.join(', ')}] (${tensor.dtype}); the file does not match its config, retrain it`,
      );
    }
    return stored;
  });
}

/**
 * Reads a model written by `saveRewardModel`. The file is read header first and checked before
 * anything is built from it: the header length against the file size, every tensor's dtype, shape
 * and byte range against the header and the data section, the format and its version, the
 * encoder spec (which may name no endpoint or key: see `endpointFieldsOf`) and head config, the
 * tensors against the shapes those configs need and `MAX_HEAD_PARAMETERS`. Only then are the
 * tensors read, straight into the head, and checked against the integrity hash; a weight that is
 * NaN or infinite is refused. Any failure is a UserError saying what is wrong and what to do.
 * Memory: the head (and its training buffers) plus the encoder's scratch, all bounded by what the
 * file's data section holds.
 *
 * @example
 * const model = await loadRewardModel('models/rm.safetensors');
 * await model.score(question, plans);
 */
export async function loadRewardModel(path: string, options: LoadRewardModelOptions = {}): Promise<TrainedRewardModel> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new UserError(`cannot read model file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); pass the path of a model written by \`orchrm rm train --out\``, { cause: error });
  }
  try {
    return await readModel(path, handle, options);
  } catch (error) {
    if (error instanceof SafetensorsFormatError) throw new UserError(`model file ${path} is not a valid safetensors file: ${error.message}; it is truncated or corrupted, restore or retrain it`, { cause: error });
    if (error instanceof OrchrmError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string') throw new UserError(`cannot read model file ${path} (${code}); pass the path of a model written by \`orchrm rm train --out\``, { cause: error });
    throw error;
  } finally {
    await handle.close();
  }
}

async function readModel(path: string, handle: FileHandle, options: LoadRewardModelOptions): Promise<TrainedRewardModel> {
  const header = await readSafetensorsHeader(handle);
  const { metadata } = header;
  checkFormat(path, metadata);
  const { spec, headConfig } = readConfigs(path, metadata, Number(metadata.format_version));
  const dimension = featureDimension(spec);
  const ensembleSize = ensembleSizeField(path, metadata);
  const parts = optionalPartsField(path, metadata);
  const router = templateRouterField(path, metadata);
  const entries = matchTensors(path, header, headConfig, dimension, ensembleSize, parts);
  checkHeadSize(headConfig, dimension);
  const provenance: RewardModelProvenance = {
    ...(metadata.training_data_hash ? { trainingDataHash: metadata.training_data_hash } : {}),
    ...(metadata.seed ? { seed: Number(metadata.seed) } : {}),
    trainingConfig: parseJsonField(path, metadata, 'training_config') as Record<string, unknown>,
    metrics: parseJsonField(path, metadata, 'metrics') as Record<string, unknown>,
    ...trainedOnField(path, metadata),
  };
  // Everything the header claims is now checked against the file: build, then read the tensors into place.
  const seed = metadata.seed === '' || metadata.seed === undefined ? 0 : Number(metadata.seed);
  const head = createHead(headConfig, dimension, seed);
  const ensemble = Array.from({ length: ensembleSize }, () => createHead(headConfig, dimension, seed));
  const costHead = parts.costHead ? createHead({ kind: 'linear' }, dimension, seed) : undefined;
  const platt = new Float64Array(parts.calibration ? 2 : 0);
  // In the order matchTensors listed the entries.
  const tensors: { name: string; values: ParameterArray }[] = [
    ...[head, ...ensemble, ...(costHead ? [costHead] : [])].flatMap((member) => member.tensors),
    ...(parts.calibration ? [{ name: CALIBRATION_TENSOR, values: platt }] : []),
  ];
  const hash = createHash('sha256');
  const inFileOrder = tensors.map((tensor, index) => ({ tensor, entry: entries[index]! })).sort((a, b) => a.entry.begin - b.entry.begin);
  for (const { tensor, entry } of inFileOrder) {
    const bytes = new Uint8Array(tensor.values.buffer, tensor.values.byteOffset, tensor.values.byteLength);
    await readExactly(handle, bytes, header.dataOffset + entry.begin);
    // The tensors cover the data section exactly and in this order, so this hashes the whole section.
    hash.update(bytes);
    fromLittleEndian(tensor.values);
  }
  const actual = hash.digest('hex');
  if (metadata.tensors_sha256 !== actual) {
    throw new UserError(`model file ${path} failed its integrity check (tensor bytes hash to ${actual.slice(0, 12)}..., the file records ${(metadata.tensors_sha256 ?? '(none)').slice(0, 12)}...); the file is corrupted or was edited, restore or retrain it`);
  }
  for (const tensor of tensors) {
    const bad = tensor.values.findIndex((value) => !Number.isFinite(value));
    if (bad !== -1) {
      throw new UserError(`model file ${path}: tensor ${tensor.name} holds ${tensor.values[bad]} at index ${bad}; a model with NaN or infinite weights scores nothing, retrain it (a lower learning rate keeps training finite)`);
    }
  }
  const pipeline = new FeaturePipeline(spec, options.features);
  const calibration: PlattCalibration | undefined = parts.calibration ? { slope: platt[0]!, intercept: platt[1]! } : undefined;
  return new TrainedRewardModel(pipeline, head, {
    name: metadata.name ?? `orchrm-bt-${headConfig.kind}`,
    provenance,
    ensemble,
    ...(costHead !== undefined && { costHead }),
    ...(calibration !== undefined && { calibration }),
    ...router,
    ...(options.catalog ? { catalog: options.catalog } : {}),
  });
}
