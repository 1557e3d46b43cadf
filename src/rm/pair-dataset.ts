import { type EventSink, InvalidInputError, type Pair, PairSchema, type PairSplit, type ProgressEvent, UserError, zodIssues } from '../core/index.js';
import { createHash } from 'node:crypto';
import { defaultBlockCatalog, type BlockCatalog } from '../plan/index.js';
import type { FeaturePipeline } from './features/feature-pipeline.js';
import { analyzePlan, type PlanAnalysis } from './features/plan-analysis.js';

/** Pairs encoded per embeddings round trip (texts of a chunk are prepared together). */
export const ENCODE_CHUNK_PAIRS = 512;

/** `split` codes in `PairDataset.split`. */
export const SPLIT_CODES: Record<PairSplit, number> = { train: 0, validation: 1, test: 2 };

/**
 * Pairs as typed arrays over one shared feature matrix: pair i compares row `winner[i]` with
 * row `loser[i]` under `weight[i]` and `margin[i]` (0 when none). Pairs without a split count
 * as training pairs.
 */
export interface PairDataset {
  readonly matrix: FeatureMatrix;
  readonly winner: Uint32Array;
  readonly loser: Uint32Array;
  readonly weight: Float64Array;
  readonly margin: Float64Array;
  /** 0 train, 1 validation, 2 test (`SPLIT_CODES`). */
  readonly split: Uint8Array;
  readonly pairIds: readonly string[];
  readonly sources: readonly string[];
  /** The task of each pair (bootstrap resamples draw whole tasks); absent in datasets built by hand. */
  readonly taskIds?: readonly string[];
  /** sha256 over every pair's id, question, plan texts, weight, margin and split, in order. */
  readonly dataHash: string;
}

export interface EncodePairsOptions {
  /** @default the built-in blocks */
  catalog?: BlockCatalog;
  signal?: AbortSignal;
  /** Progress of stage `encoding pairs` after each chunk: pairs encoded so far, with the distinct plans (rows) among them. */
  events?: EventSink<ProgressEvent>;
}

/** Indices of the pairs in one split. */
export function splitIndices(dataset: PairDataset, split: PairSplit): Uint32Array {
  const code = SPLIT_CODES[split];
  const out: number[] = [];
  for (let index = 0; index < dataset.split.length; index++) if (dataset.split[index] === code) out.push(index);
  return Uint32Array.from(out);
}

const key = (task: string, text: string) => createHash('sha1').update(task).update('\u0000').update(text).digest('base64');

/**
 * Validates the pairs and encodes every distinct (task, canonical plan) once into a CSR matrix.
 * Raw plan texts that canonicalise alike share a row; embeddings are fetched chunk by chunk.
 *
 * @example
 * const dataset = await encodePairs(pairs, new FeaturePipeline(parseEncoderSpec('words:1-2,structure')));
 */
export async function encodePairs(pairs: readonly Pair[], pipeline: FeaturePipeline, options: EncodePairsOptions = {}): Promise<PairDataset> {
  const { catalog = defaultBlockCatalog(), signal, events } = options;
  const count = pairs.length;
  const winner = new Uint32Array(count);
  const loser = new Uint32Array(count);
  const weight = new Float64Array(count);
  const margin = new Float64Array(count);
  const split = new Uint8Array(count);
  const pairIds: string[] = [];
  const sources: string[] = [];
  const taskIds: string[] = [];
  const dataHash = createHash('sha256');
  const builder = new FeatureMatrixBuilder(pipeline.dimension);
  const rowByRawKey = new Map<string, number>();
  const rowByCanonicalKey = new Map<string, number>();

  for (let chunkStart = 0; chunkStart < count; chunkStart += ENCODE_CHUNK_PAIRS) {
    signal?.throwIfAborted();
    const chunkEnd = Math.min(count, chunkStart + ENCODE_CHUNK_PAIRS);
    // Analyse first (so embeddings of the chunk can be fetched in one go), then encode.
    const pending: { pairIndex: number; side: 0 | 1; rawKey: string; analysis: PlanAnalysis | undefined }[] = [];
    const pendingKeys = new Set<string>();
    for (let index = chunkStart; index < chunkEnd; index++) {
      const parsed = PairSchema.safeParse(pairs[index]);
      if (!parsed.success) throw new InvalidInputError(`pair [${index}]`, zodIssues(parsed.error));
      const pair = parsed.data;
      pairIds.push(pair.id);
      sources.push(pair.source);
      taskIds.push(pair.taskId);
      weight[index] = pair.weight;
      margin[index] = pair.margin ?? 0;
      split[index] = SPLIT_CODES[pair.split ?? 'train'];
      dataHash.update(JSON.stringify([pair.id, pair.question, pair.winner.planText, pair.loser.planText, pair.weight, pair.margin ?? null, pair.split ?? null]));
      for (const [side, text] of [[0, pair.winner.planText], [1, pair.loser.planText]] as const) {
        const rawKey = key(pair.question, text);
        if (rowByRawKey.has(rawKey) || pendingKeys.has(rawKey)) {
          pending.push({ pairIndex: index, side, rawKey, analysis: undefined });
          continue;
        }
        pendingKeys.add(rawKey);
        pending.push({ pairIndex: index, side, rawKey, analysis: analyzePlan(text, catalog) });
      }
    }
    if (pipeline.needsPreparation) {
      const fresh = pending.filter((item) => item.analysis !== undefined);
      await pipeline.prepare(
        fresh.map((item) => pairs[item.pairIndex]!.question),
        fresh.map((item) => item.analysis!),
        signal,
      );
    }
    for (const item of pending) {
      let row = rowByRawKey.get(item.rawKey);
      if (row === undefined) {
        // The first occurrence of a raw text in this chunk carries its analysis.
        const analysis = item.analysis!;
        const question = pairs[item.pairIndex]!.question;
        const canonicalKey = key(question, analysis.text);
        row = rowByCanonicalKey.get(canonicalKey);
        if (row === undefined) {
          const nonzeros = pipeline.encode(pipeline.analyzeTask(question), analysis);
          row = builder.append(pipeline.indices, pipeline.values, nonzeros);
          rowByCanonicalKey.set(canonicalKey, row);
        }
        rowByRawKey.set(item.rawKey, row);
      }
      (item.side === 0 ? winner : loser)[item.pairIndex] = row;
    }
    pipeline.release();
    events?.({ type: 'progress', stage: 'encoding pairs', done: chunkEnd, total: count, detail: `${builder.rowCount} distinct rows` });
  }
  return { matrix: builder.finish(), winner, loser, weight, margin, split, pairIds, sources, taskIds, dataHash: dataHash.digest('hex') };
}

// The feature matrix the pairs refer to.

/** Most stored nonzeros (row offsets are 32-bit). */
export const MAX_MATRIX_NONZEROS = 0xffffffff;

/**
 * Rows of sparse feature vectors in compressed sparse row form: row r is
 * `indices[rowStart[r] .. rowStart[r + 1])` with matching `values`. Every distinct
 * (task, plan) is stored once and pairs refer to rows, so the training loop reads typed
 * arrays only.
 */
export interface FeatureMatrix {
  readonly dimension: number;
  readonly rowCount: number;
  /** rowCount + 1 offsets. */
  readonly rowStart: Uint32Array;
  readonly indices: Uint32Array;
  readonly values: Float32Array;
}

/** Appends rows, doubling its buffers as needed; `finish` trims them to size. */
export class FeatureMatrixBuilder {
  private rowStart: Uint32Array = new Uint32Array(1024);
  private indices: Uint32Array = new Uint32Array(1 << 16);
  private values: Float32Array = new Float32Array(1 << 16);
  private rows = 0;
  private nonzeros = 0;

  constructor(readonly dimension: number) {}

  get rowCount(): number {
    return this.rows;
  }

  /** Adds a row from the first `count` entries of the buffers; returns its row number. */
  append(indices: Uint32Array, values: Float32Array, count: number): number {
    if (this.nonzeros + count > MAX_MATRIX_NONZEROS) {
      throw new UserError(`the training data has more than ${MAX_MATRIX_NONZEROS} feature nonzeros; use fewer pairs or a smaller encoder spec (fewer n-gram lengths)`);
    }
    if (this.rows + 2 > this.rowStart.length) this.rowStart = grow(this.rowStart, this.rowStart.length * 2);
    if (this.nonzeros + count > this.indices.length) {
      const capacity = Math.min(MAX_MATRIX_NONZEROS, Math.max(this.indices.length * 2, this.nonzeros + count));
      this.indices = grow(this.indices, capacity);
      this.values = grow(this.values, capacity);
    }
    this.indices.set(indices.subarray(0, count), this.nonzeros);
    this.values.set(values.subarray(0, count), this.nonzeros);
    this.nonzeros += count;
    this.rows++;
    this.rowStart[this.rows] = this.nonzeros;
    return this.rows - 1;
  }

  finish(): FeatureMatrix {
    return {
      dimension: this.dimension,
      rowCount: this.rows,
      rowStart: this.rowStart.slice(0, this.rows + 1),
      indices: this.indices.slice(0, this.nonzeros),
      values: this.values.slice(0, this.nonzeros),
    };
  }
}

function grow<Array extends Uint32Array | Float32Array>(array: Array, capacity: number): Array {
  const larger = (array instanceof Uint32Array ? new Uint32Array(capacity) : new Float32Array(capacity)) as Array;
  larger.set(array);
  return larger;
}
