import { z } from 'zod';

const rate = (what: string) => z.number().min(0, `${what} must be in [0, 1]`).max(1, `${what} must be in [0, 1]`).default(0);

/**
 * Server-side latency, drawn from a lognormal distribution with the given median and 99th
 * percentile (request latencies of model servers are right-skewed; a lognormal is the usual fit).
 * `p99Ms` equal to `medianMs` (or 0) gives a constant delay. @unit milliseconds
 */
export const LatencyConfigSchema = z
  .strictObject({
    medianMs: z.number().min(0, 'latency medianMs must be >= 0').default(0),
    p99Ms: z.number().min(0, 'latency p99Ms must be >= 0').default(0),
  })
  .refine((latency) => latency.p99Ms === 0 || (latency.medianMs > 0 && latency.p99Ms >= latency.medianMs), {
    message: 'latency p99Ms must be 0 (a constant delay of medianMs) or at least medianMs, with medianMs > 0',
    path: ['p99Ms'],
  });

/**
 * Faults the simulation server injects into chat completion and embedding requests. Each valid
 * request draws at most one fault; the rates are probabilities of disjoint outcomes, so their sum
 * may not exceed 1. Every rate defaults to 0 (no faults).
 */
export const FaultConfigSchema = z
  .strictObject({
    /** P(429 with `retry-after`). */
    rateLimitRate: rate('rateLimitRate'),
    /** P(500 with `retry-after`). */
    serverErrorRate: rate('serverErrorRate'),
    /** `retry-after` header sent with injected 429 and 500 answers. @default 1 @unit seconds */
    retryAfterS: z.number().min(0, 'retryAfterS must be >= 0').default(1),
    /** Delay before answering (every request that reaches the endpoint, faulted or not). */
    latencyMs: LatencyConfigSchema.default({ medianMs: 0, p99Ms: 0 }),
    /** P(body cut mid-JSON while `content-length` announces the full body; the connection then closes). */
    truncateRate: rate('truncateRate'),
    /** P(a complete 200 response whose body is not valid JSON). */
    garbleRate: rate('garbleRate'),
    /** P(the socket destroyed without any answer). */
    dropRate: rate('dropRate'),
    /**
     * P(the request held open with no answer until the client gives up): what a client sees as
     * its own timeout (issue 9's "timeouts"). Held requests are dropped when the server closes.
     */
    hangRate: rate('hangRate'),
  })
  .refine(
    (faults) => faults.rateLimitRate + faults.serverErrorRate + faults.truncateRate + faults.garbleRate + faults.dropRate + faults.hangRate <= 1,
    'the fault rates (rate limit, server error, truncate, garble, drop, hang) are exclusive outcomes of one request and must sum to at most 1',
  );

export type FaultConfig = z.infer<typeof FaultConfigSchema>;
export type FaultConfigInput = z.input<typeof FaultConfigSchema>;

/** The kinds of fault the server injects. */
export type FaultKind = 'rateLimit' | 'serverError' | 'truncate' | 'garble' | 'drop' | 'hang';

export const FAULT_KINDS: readonly FaultKind[] = ['rateLimit', 'serverError', 'truncate', 'garble', 'drop', 'hang'];
