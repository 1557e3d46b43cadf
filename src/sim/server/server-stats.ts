import type { FaultKind } from './fault-config.js';

/** What the simulation server has done so far; `server.stats` returns a snapshot. */
export interface ServerStats {
  /** Valid requests per endpoint (invalid ones are counted in `invalid` only). */
  requests: { chatCompletions: number; embeddings: number; models: number };
  /** Requests answered with a 4xx of ours (bad JSON, failed validation, unknown route or model, too large). */
  invalid: number;
  /** Requests the provider failed on (answered 5xx; injected faults are not counted here). */
  failed: number;
  /** Injected faults by kind. */
  faults: Record<FaultKind, number>;
  /** Injected delays: how many requests waited, in total and at most. */
  latency: { delayedRequests: number; totalDelayMs: number; maxDelayMs: number };
}

export function emptyServerStats(): ServerStats {
  return {
    requests: { chatCompletions: 0, embeddings: 0, models: 0 },
    invalid: 0,
    failed: 0,
    faults: { rateLimit: 0, serverError: 0, truncate: 0, garble: 0, drop: 0, hang: 0 },
    latency: { delayedRequests: 0, totalDelayMs: 0, maxDelayMs: 0 },
  };
}
