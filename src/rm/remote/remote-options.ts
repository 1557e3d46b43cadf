import { z } from 'zod';
import type { BlockCatalog } from '../../plan/index.js';
import type { RetryOptions } from '../../llm/index.js';

/** Settings shared by the remote reward-model adapters; validated when an adapter is created. */
export const RemoteRewardOptionsSchema = z.object({
  /** Full endpoint URL, e.g. `http://127.0.0.1:8000/classify` or `http://127.0.0.1:5000/get_reward`. */
  url: z.url({ message: 'url must be an absolute http(s) URL of the endpoint, e.g. http://127.0.0.1:8000/classify' }),
  /** Per-attempt deadline, the body included. @unit milliseconds @default 60000 */
  timeoutMs: z.number().int().positive().default(60_000),
  /** Retries after the first attempt, for 408/409/429/5xx, dropped connections and truncated bodies. @default 2 (openai-node) */
  maxRetries: z.number().int().min(0).max(10).default(2),
  /** Plans sent per request; larger lists are split. @default 64 */
  batchSize: z.number().int().positive().default(64),
  /** Requests in flight at once when a list takes several (always one per plan for chat requests). @default 4 */
  concurrency: z.number().int().positive().max(64).default(4),
  /**
   * `raw`: send plan text as written, as `orchrm pairs export` writes it by default, so a model
   * fine-tuned on an export reads what it was trained on; `canonical`: send each plan's
   * canonical rendering (exports with `--plan-text canonical`, and orchrm's own models). Parsed
   * plans are always rendered canonically. An export's layout file, where a client takes one,
   * overrides this. @default 'raw'
   */
  planText: z.enum(['canonical', 'raw']).default('raw'),
  /** Environment variable holding a bearer token; no `Authorization` header when it is unset. @default 'ORCHRM_REWARD_API_KEY' */
  apiKeyEnv: z.string().min(1).default('ORCHRM_REWARD_API_KEY'),
});
export type RemoteRewardOptionsInput = z.input<typeof RemoteRewardOptionsSchema>;
export type RemoteRewardSettings = z.output<typeof RemoteRewardOptionsSchema>;

/** Runtime dependencies of the adapters, injected by tests and callers with special needs. */
export interface RemoteRewardRuntime {
  /** Text before the plan. @default defaultRewardPrompt */
  formatPrompt?: (task: string) => string;
  /** Blocks plans are parsed and canonicalised against. @default the built-in blocks */
  catalog?: BlockCatalog;
  /** Backoff settings and hooks for `withRetry` (`maxRetries` comes from the options). */
  retry?: Omit<RetryOptions, 'maxRetries' | 'signal'>;
  /** @default process.env */
  env?: Record<string, string | undefined>;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}
