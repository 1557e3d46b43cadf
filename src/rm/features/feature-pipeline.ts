import { LRUCache } from 'lru-cache';
import { UserError } from '../../core/index.js';
import { EMBEDDINGS_ENDPOINT_FIX, type EncoderSpec } from './encoder-spec.js';
import { createEmbeddingEncoder } from './embedding-encoder.js';
import { EmbeddingSource } from './embedding-source.js';
import { FeatureAccumulator } from './feature-accumulator.js';
import type { FeatureEncoder } from './feature-encoder.js';
import { NamedFeatureCollector, type NamedFeature } from './named-features.js';
import { createCharNgramEncoder, createWordNgramEncoder } from './ngram-encoders.js';
import type { PlanAnalysis } from './plan-analysis.js';
import { createLengthEncoder, createStructureEncoder } from './structure-encoder.js';
import { analyzeTask, type TaskAnalysis } from './task-analysis.js';
import { TASK_SHAPE_VERSION } from './task-shape.js';
import { createPopularityEncoder, createRouteEncoder } from './routing-encoders.js';
import { createCrossEncoder, createNamesEncoder, createShapeEncoder, createTaskStatsEncoder } from './task-encoders.js';

/** Distinct tasks whose analysis and task-only features are kept between calls (least recently used evicted first). */
export const TASK_CACHE_SIZE = 4096;

export interface FeaturePipelineOptions {
  /**
   * Where embedding encoders fetch vectors: the user's own endpoint and key. A spec (and so a
   * model file) never names one. `apiKey` @default process.env.OPENAI_API_KEY
   */
  embeddings?: { baseURL?: string; apiKey?: string; cachePath?: string };
}

interface TaskEntry {
  analysis: TaskAnalysis;
  indices: Uint32Array | undefined;
  values: Float32Array | undefined;
}

const sidesOf = (of: 'task' | 'plan' | 'both') => (of === 'both' ? (['task', 'plan'] as const) : ([of] as const));

/**
 * Turns (task, plan) into one sparse vector as the spec says. Layout: hashed features of every
 * encoder share coordinates [0, 2^hashBits) (each encoder hashes under its own namespace seed);
 * dense embedding blocks follow at fixed offsets in spec order, task side before plan side.
 * Task-only features are computed once per task and reused.
 *
 * @example
 * const pipeline = new FeaturePipeline(parseEncoderSpec('words:1-2,structure'));
 * const count = pipeline.encode(pipeline.analyzeTask(task), analyzePlan(planText, catalog));
 * pipeline.indices.subarray(0, count); pipeline.values.subarray(0, count);
 */
export class FeaturePipeline {
  /** Total input width of a head: 2^hashBits plus every dense block. */
  readonly dimension: number;
  readonly hashDimension: number;
  /** Indices of the last `encode`, sorted, distinct (valid up to the returned count). */
  indices = new Uint32Array(4096);
  /** Values matching `indices`. */
  values = new Float32Array(4096);
  private readonly taskEncoders: FeatureEncoder[] = [];
  private readonly planEncoders: FeatureEncoder[] = [];
  private readonly sources: { side: 'task' | 'plan'; source: EmbeddingSource }[] = [];
  private readonly accumulator: FeatureAccumulator;
  // lru-cache: see TrainedRewardModel's plan cache for why not a Map trimmed at its first key.
  private readonly tasks = new LRUCache<string, TaskEntry>({ max: TASK_CACHE_SIZE });

  constructor(
    readonly spec: EncoderSpec,
    options: FeaturePipelineOptions = {},
  ) {
    this.hashDimension = 2 ** spec.hashBits;
    const mask = this.hashDimension - 1;
    let offset = this.hashDimension;
    const add = (encoder: FeatureEncoder) => (encoder.taskOnly ? this.taskEncoders : this.planEncoders).push(encoder);
    for (const feature of spec.features) {
      switch (feature.kind) {
        case 'words':
          for (const side of sidesOf(feature.of)) add(createWordNgramEncoder(side, feature.min, feature.max, mask));
          break;
        case 'chars':
          for (const side of sidesOf(feature.of)) add(createCharNgramEncoder(side, feature.min, feature.max, mask));
          break;
        case 'structure':
          add(createStructureEncoder(mask));
          break;
        case 'length':
          add(createLengthEncoder(mask));
          break;
        case 'task-stats':
          add(createTaskStatsEncoder(mask));
          break;
        case 'cross':
          add(createCrossEncoder(mask));
          break;
        case 'names':
          add(createNamesEncoder(mask));
          break;
        case 'plan-shape':
        case 'shape':
          add(createShapeEncoder(mask, feature.kind === 'shape'));
          break;
        case 'route':
          add(createRouteEncoder(mask));
          break;
        case 'popularity':
          add(createPopularityEncoder(mask, feature.table));
          break;
        case 'embed': {
          const { baseURL, apiKey, cachePath } = options.embeddings ?? {};
          if (baseURL === undefined) throw new UserError(`encoder ${feature.kind}:${feature.model} needs an OpenAI-compatible embeddings endpoint (e.g. http://127.0.0.1:8000/v1); ${EMBEDDINGS_ENDPOINT_FIX}`);
          const source = new EmbeddingSource({ baseURL, model: feature.model, dimensions: feature.dimensions, ...(apiKey ? { apiKey } : {}), ...(cachePath ? { cachePath } : {}) });
          for (const side of sidesOf(feature.of)) {
            add(createEmbeddingEncoder(side, source, offset));
            this.sources.push({ side, source });
            offset += feature.dimensions;
          }
          break;
        }
      }
    }
    this.dimension = offset;
    this.accumulator = new FeatureAccumulator(this.dimension);
  }

  /** Whether `prepare` must be awaited before encoding (the spec has embeddings). */
  get needsPreparation(): boolean {
    return this.sources.length > 0;
  }

  /** Fetches the embeddings of these texts (no-op without embedding encoders). */
  async prepare(taskTexts: readonly string[], plans: readonly PlanAnalysis[], signal?: AbortSignal): Promise<void> {
    for (const { side, source } of this.sources) {
      await source.prepare(side === 'task' ? taskTexts : plans.map((plan) => plan.text), signal);
    }
  }

  /** Drops prepared embeddings held in memory. */
  release(): void {
    for (const { source } of this.sources) source.release();
  }

  close(): void {
    for (const { source } of this.sources) source.close();
  }

  /** The analysis of a task, cached (bounded, oldest evicted first). */
  analyzeTask(text: string): TaskAnalysis {
    return this.taskEntry(text).analysis;
  }

  /** Encodes one example into `indices`/`values` and returns its number of nonzeros. */
  encode(task: TaskAnalysis, plan: PlanAnalysis): number {
    const entry = this.taskEntry(task.text, task);
    // Task-only features are computed at the first encode (after any `prepare`), then reused.
    if (entry.indices === undefined || entry.values === undefined) this.encodeTaskOnly(entry);
    const accumulator = this.accumulator;
    const taskIndices = entry.indices!;
    const taskValues = entry.values!;
    for (let index = 0; index < taskIndices.length; index++) accumulator.add(taskIndices[index]!, taskValues[index]!);
    for (const encoder of this.planEncoders) encoder.encode(task, plan, accumulator);
    this.ensureCapacity(accumulator.size);
    return accumulator.finish(this.indices, this.values, 0);
  }

  /**
   * The features `encode` would write for this example, each named, task-only encoders first
   * (their coordinates and signed values sum, per coordinate, to what `encode` writes). Slow
   * (names are strings): for explaining a score.
   */
  explainFeatures(task: TaskAnalysis, plan: PlanAnalysis): NamedFeature[] {
    const collector = new NamedFeatureCollector();
    for (const encoder of [...this.taskEncoders, ...this.planEncoders]) {
      collector.startEncoder(encoder.name);
      encoder.explain(task, plan, collector);
    }
    return collector.features();
  }

  private encodeTaskOnly(entry: TaskEntry): void {
    for (const encoder of this.taskEncoders) encoder.encode(entry.analysis, EMPTY_PLAN, this.accumulator);
    this.ensureCapacity(this.accumulator.size);
    const count = this.accumulator.finish(this.indices, this.values, 0);
    entry.indices = this.indices.slice(0, count);
    entry.values = this.values.slice(0, count);
  }

  private taskEntry(text: string, known?: TaskAnalysis): TaskEntry {
    let entry = this.tasks.get(text);
    if (entry === undefined) {
      entry = { analysis: known ?? analyzeTask(text, this.spec.taskShapeVersion ?? TASK_SHAPE_VERSION), indices: undefined, values: undefined };
      this.tasks.set(text, entry);
    }
    return entry;
  }

  private ensureCapacity(size: number): void {
    if (size <= this.indices.length) return;
    let capacity = this.indices.length;
    while (capacity < size) capacity *= 2;
    this.indices = new Uint32Array(capacity);
    this.values = new Float32Array(capacity);
  }
}

const EMPTY_PLAN: PlanAnalysis = { text: '', plan: undefined, diagnosticCodes: [], warningCodes: [], wordHashes: new Uint32Array(0), kindHashes: new Uint32Array(0), shapeNames: [], shapeHashes: new Uint32Array(0) };
