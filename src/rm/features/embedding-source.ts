import OpenAI from 'openai';
import { ModelBehaviorError, sha256, UserError } from '../../core/index.js';
import { EmbeddingCache } from './embedding-cache.js';

/** Texts sent per `/v1/embeddings` request. */
export const EMBEDDING_BATCH_SIZE = 64;

export interface EmbeddingSourceOptions {
  /** OpenAI-compatible base URL ending in `/v1`, e.g. `http://127.0.0.1:8000/v1`. */
  baseURL: string;
  model: string;
  /** Width of every vector; sent as `dimensions` and checked on every response. */
  dimensions: number;
  /** @default process.env.OPENAI_API_KEY, else 'unused' (local servers need none) */
  apiKey?: string;
  /** SQLite file caching vectors across runs. @default ':memory:' (this process only) */
  cachePath?: string;
  /** @default 2 (openai-node's default) */
  maxRetries?: number;
}

/**
 * Dense text embeddings from an OpenAI-compatible `/v1/embeddings` endpoint, through the
 * `openai` client, with a SQLite cache. Encoding is synchronous, so callers `prepare` the texts
 * of a batch first (fetching only what the cache lacks), read `vector`, then `release`.
 *
 * @example
 * const source = new EmbeddingSource({ baseURL: server.url, model: 'sim-embedding', dimensions: 64 });
 * await source.prepare(['a task']); source.vector('a task'); // Float32Array(64)
 */
export class EmbeddingSource {
  private readonly client: OpenAI;
  private readonly cache: EmbeddingCache;
  private readonly ready = new Map<string, Float32Array>();

  constructor(readonly options: EmbeddingSourceOptions) {
    const { baseURL, apiKey = process.env.OPENAI_API_KEY ?? 'unused', cachePath = ':memory:', maxRetries = 2 } = options;
    this.client = new OpenAI({ baseURL, apiKey, maxRetries });
    this.cache = new EmbeddingCache(cachePath);
  }

  get model(): string {
    return this.options.model;
  }

  get dimensions(): number {
    return this.options.dimensions;
  }

  /** Makes the vectors of `texts` available to `vector`. */
  async prepare(texts: readonly string[], signal?: AbortSignal): Promise<void> {
    const { model, dimensions } = this.options;
    const missing: { text: string; hash: string }[] = [];
    const queued = new Set<string>();
    for (const text of texts) {
      if (this.ready.has(text) || queued.has(text)) continue;
      const hash = sha256(text);
      const cached = this.cache.get(model, dimensions, hash);
      if (cached) this.ready.set(text, cached);
      else {
        queued.add(text);
        missing.push({ text, hash });
      }
    }
    for (let start = 0; start < missing.length; start += EMBEDDING_BATCH_SIZE) {
      const batch = missing.slice(start, start + EMBEDDING_BATCH_SIZE);
      // The endpoint refuses empty strings; an empty text embeds as a single space.
      const input = batch.map((item) => (item.text === '' ? ' ' : item.text));
      const response = await this.request(input, signal);
      const entries: [string, Float32Array][] = [];
      for (const item of response.data) {
        const target = batch[item.index];
        if (target === undefined || item.embedding.length !== dimensions) {
          throw new ModelBehaviorError(
            `${this.options.baseURL} returned an embedding of width ${item.embedding.length} at index ${item.index} for model ${model}, expected ${dimensions}; ` +
              'set the spec to the width the model produces (embed:MODEL/DIMS)',
          );
        }
        const vector = Float32Array.from(item.embedding);
        this.ready.set(target.text, vector);
        entries.push([target.hash, vector]);
      }
      if (entries.length !== batch.length) throw new ModelBehaviorError(`${this.options.baseURL} returned ${entries.length} embeddings for ${batch.length} inputs`);
      this.cache.putMany(model, dimensions, entries);
    }
  }

  /** The vector of a prepared text, or undefined. */
  vector(text: string): Float32Array | undefined {
    return this.ready.get(text);
  }

  /** Forgets the prepared vectors (the disk cache keeps them). */
  release(): void {
    this.ready.clear();
  }

  close(): void {
    this.cache.close();
  }

  private async request(input: string[], signal: AbortSignal | undefined) {
    try {
      return await this.client.embeddings.create(
        { model: this.options.model, input, dimensions: this.options.dimensions, encoding_format: 'float' },
        signal ? { signal } : undefined,
      );
    } catch (error) {
      if (error instanceof OpenAI.APIError && error.status !== undefined && error.status < 500 && error.status !== 429) {
        throw new UserError(`embeddings request to ${this.options.baseURL} for model ${this.options.model} was refused (${error.status}: ${error.message}); check the model name, width and endpoint`, { cause: error });
      }
      throw error;
    }
  }
}
