import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { sha256, type SqliteDatabase, stableStringify, UserError } from '../core/index.js';
import type { ChatProvider, ChatRequest, ChatResponse } from './chat-provider.js';

/**
 * Bumped when the stored row format or the key changes. Version 2 keys by the model a request is
 * sent to (version 1 keyed by slot under a namespace naming every slot's model). Rows of version
 * 1 are still read, under their old key; rows of other versions are ignored (misses).
 */
export const RESPONSE_CACHE_FORMAT_VERSION = 2;
const LEGACY_FORMAT_VERSION = 1;

/**
 * sha256 of the canonical request: everything that decides the answer (slot, model override,
 * messages, sampling settings, response format, sample index) and nothing that does not (the
 * abort signal). Object keys are sorted and absent fields dropped, so equal requests hash equal.
 * Call records keep it; the cache keys by `sentRequestHash`.
 */
export function requestHash(request: ChatRequest): string {
  return sha256(
    stableStringify({
      slot: request.slot,
      model: request.model,
      messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
      temperature: request.temperature,
      maxTokens: request.maxTokens,
      topP: request.topP,
      reasoningEffort: request.reasoningEffort,
      seed: request.seed,
      stop: request.stop,
      responseFormat: request.responseFormat,
      sampleIndex: request.sampleIndex ?? 0,
    }),
  );
}

/**
 * sha256 of what reaches the server: the model the request goes to, the messages, sampling
 * settings, response format and sample index; not the slot, which the server never sees. Two
 * slots served by the same model share entries, and changing one slot's model (say the judge's)
 * leaves every other slot's entries valid.
 */
export function sentRequestHash(request: ChatRequest, model: string): string {
  return sha256(
    stableStringify({
      model,
      messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
      temperature: request.temperature,
      maxTokens: request.maxTokens,
      topP: request.topP,
      reasoningEffort: request.reasoningEffort,
      seed: request.seed,
      stop: request.stop,
      responseFormat: request.responseFormat,
      sampleIndex: request.sampleIndex ?? 0,
    }),
  );
}

export interface ResponseCacheOptions {
  /** An open database, e.g. `store.db` (left open by `close`), or a file path (opened here in WAL mode, closed by `close`). */
  database: SqliteDatabase | string;
  /**
   * Keeps apart entries of providers that answer the same request differently. Providers that
   * resolve models (`resolveModel`) are keyed by model, so they need none.
   * @default 'model' when the provider resolves models, else provider.name
   */
  namespace?: string;
  /**
   * The namespace format-1 rows were written under (orchrm before 0.2 used the provider's name,
   * e.g. `openai(qwen)`), read when a request misses, so an older cache keeps serving.
   */
  legacyNamespace?: string;
}

/** A cached provider; `close` releases the database when the cache opened it. */
export interface CachedChatProvider extends ChatProvider {
  close(): void;
}

const CachedRowSchema = z.object({
  text: z.string(),
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative(),
  usage_source: z.enum(['provider', 'counted']),
  model: z.string(),
  finish_reason: z.string().nullable(),
  reasoning: z.string().nullable(),
});

/**
 * Serves repeated requests from SQLite, so re-runs cost no tokens and give the same text. Only
 * successful responses are stored. A hit returns `cached: true`, `attempts: 1` (LlmCallRecord
 * requires a positive count) and the lookup time as `latencyMs`.
 *
 * @example
 * const provider = withResponseCache(createOpenAiProvider(config), { database: 'runs/cache.sqlite' });
 */
export function withResponseCache(provider: ChatProvider, options: ResponseCacheOptions): CachedChatProvider {
  const ownsDatabase = typeof options.database === 'string';
  const database = typeof options.database === 'string' ? openDatabase(options.database) : options.database;
  const resolveModel = provider.resolveModel?.bind(provider);
  const namespace = options.namespace ?? (resolveModel ? 'model' : provider.name);
  const { legacyNamespace } = options;
  database.exec(`CREATE TABLE IF NOT EXISTS response_cache (
    namespace TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    format_version INTEGER NOT NULL,
    text TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    total_tokens INTEGER NOT NULL,
    usage_source TEXT NOT NULL,
    model TEXT NOT NULL,
    finish_reason TEXT,
    created_at TEXT NOT NULL,
    reasoning TEXT,
    PRIMARY KEY (namespace, request_hash)
  ) WITHOUT ROWID`);
  addReasoningColumn(database);
  const select = database.prepare(
    `SELECT text, prompt_tokens, completion_tokens, total_tokens, usage_source, model, finish_reason, reasoning
     FROM response_cache WHERE namespace = ? AND request_hash = ? AND format_version = ?`,
  );
  const insert = database.prepare(
    `INSERT OR REPLACE INTO response_cache (namespace, request_hash, format_version, text, prompt_tokens,
       completion_tokens, total_tokens, usage_source, model, finish_reason, created_at, reasoning)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const cacheKey = (request: ChatRequest) => (resolveModel ? sentRequestHash(request, resolveModel(request)) : requestHash(request));
  const lookup = (request: ChatRequest) => {
    const hit = CachedRowSchema.safeParse(select.get(namespace, cacheKey(request), RESPONSE_CACHE_FORMAT_VERSION));
    if (hit.success || legacyNamespace === undefined) return hit;
    return CachedRowSchema.safeParse(select.get(legacyNamespace, requestHash(request), LEGACY_FORMAT_VERSION));
  };

  return {
    name: provider.name,
    ...(resolveModel !== undefined && { resolveModel }),
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const startedAt = performance.now();
      const row = lookup(request);
      if (row.success) {
        const hit = row.data;
        const response: ChatResponse = {
          text: hit.text,
          usage: { promptTokens: hit.prompt_tokens, completionTokens: hit.completion_tokens, totalTokens: hit.total_tokens },
          usageSource: hit.usage_source,
          latencyMs: performance.now() - startedAt,
          model: hit.model,
          attempts: 1,
          cached: true,
        };
        if (hit.finish_reason !== null) response.finishReason = hit.finish_reason;
        if (hit.reasoning !== null) response.reasoning = hit.reasoning;
        return response;
      }
      const response = await provider.chat(request);
      const { usage } = response;
      insert.run(
        namespace,
        cacheKey(request),
        RESPONSE_CACHE_FORMAT_VERSION,
        response.text,
        usage.promptTokens,
        usage.completionTokens,
        usage.totalTokens,
        response.usageSource,
        response.model,
        response.finishReason ?? null,
        new Date().toISOString(),
        response.reasoning ?? null,
      );
      return response;
    },
    close() {
      if (ownsDatabase) database.close();
    },
  };
}

/** Caches written before reasoning was kept lack the column; another process may add it at the same time. */
function addReasoningColumn(database: SqliteDatabase): void {
  const columns = database.prepare('SELECT name FROM pragma_table_info(?)').all('response_cache') as { name: string }[];
  if (columns.some((column) => column.name === 'reasoning')) return;
  try {
    database.exec('ALTER TABLE response_cache ADD COLUMN reasoning TEXT');
  } catch (error) {
    if (!/duplicate column name/i.test((error as Error).message)) throw error;
  }
}

function openDatabase(path: string): SqliteDatabase {
  mkdirSync(dirname(path), { recursive: true });
  const database = new Database(path);
  try {
    // WAL lets a reader (a report, another run) use the file while a collection writes to it.
    database.pragma('journal_mode = WAL');
  } catch (error) {
    database.close();
    // The first statement is where SQLite finds out (a --db naming a task file, say).
    if (error instanceof Database.SqliteError && error.code === 'SQLITE_NOTADB') {
      throw new UserError(`${path} is not an SQLite database, so it cannot hold the response cache; pass --db with an orchrm database or a new file name`, { cause: error });
    }
    throw error;
  }
  database.pragma('busy_timeout = 5000');
  // better-sqlite3's own types stay out of orchrm's public signatures (see core/sqlite-database.ts).
  return database as unknown as SqliteDatabase;
}
