import { ProviderError } from './provider-errors.js';

/*
 * We retry ourselves instead of letting the `openai` client do it (it is built with
 * `maxRetries: 0`): the client's internal retry hides how many attempts a call took and what
 * each failed attempt was, and orchrm's usage accounting and call records need both (issue 9:
 * "every failed call is recorded with its cause; retries are bounded and counted").
 * The rules and defaults are openai-node's (`client.ts` shouldRetry / retryRequest).
 */

/** Why `withRetry` gave up. */
export type RetryReason = 'maxRetriesExceeded' | 'errorNotRetryable';

/** One failed attempt, as reported to `onAttemptError`. */
export interface AttemptError {
  /** 1-based attempt number. */
  attempt: number;
  error: unknown;
  willRetry: boolean;
  /** Wait before the next attempt, when there is one. @unit milliseconds */
  delayMs?: number;
}

export interface RetryOptions {
  /** Retries after the first attempt. @default 2 (openai-node) */
  maxRetries?: number;
  /** Backoff before the first retry; doubles each retry. @default 500 (openai-node) */
  initialDelayInMs?: number;
  /** Cap on the backoff. @default 8000 (openai-node) */
  maxDelayInMs?: number;
  /** Fraction of the backoff randomly taken off. @default 0.25 (openai-node) */
  jitterRatio?: number;
  /** Stops retrying (and waiting) when aborted; the abort reason is thrown. */
  signal?: AbortSignal;
  /** Injectable wait, so tests need not sleep. @default abortable setTimeout */
  sleep?: (delayMs: number, signal?: AbortSignal) => Promise<void>;
  /** Source of jitter in [0, 1). Jitter only shifts timing, never results. @default Math.random */
  random?: () => number;
  /** Which errors may be retried. @default `isRetryableError` */
  isRetryable?: (error: unknown) => boolean;
  /** Called after every failed attempt, before waiting. */
  onAttemptError?: (event: AttemptError) => void;
}

export interface RetryResult<T> {
  result: T;
  /** Attempts made, the successful one included (1 when no retry was needed). */
  attempts: number;
  /** Errors of the failed attempts, in order. */
  errors: unknown[];
}

/**
 * Thrown when `withRetry` gives up. Keeps every attempt's error and the reason (as the AI SDK's
 * `RetryError`); `status` and `retryable` mirror the last error.
 */
export class RetryError extends ProviderError {
  readonly attempts: number;

  constructor(
    readonly errors: readonly unknown[],
    readonly reason: RetryReason,
  ) {
    const lastError = errors.at(-1);
    const lastMessage = lastError instanceof Error ? lastError.message : String(lastError);
    const why = reason === 'maxRetriesExceeded' ? `failed after ${errors.length} attempts` : `failed with an error that is not retried`;
    const options: { status?: number; retryable: boolean; cause: unknown } = { retryable: false, cause: lastError };
    if (lastError instanceof ProviderError) {
      if (lastError.status !== undefined) options.status = lastError.status;
      options.retryable = lastError.retryable;
    }
    super(`request ${why}: ${lastMessage}`, options);
    this.attempts = errors.length;
  }

  get lastError(): unknown {
    return this.errors.at(-1);
  }
}

/** openai-node's rule: ProviderErrors say themselves (408/409/429/5xx, connection, timeout, malformed body). */
export function isRetryableError(error: unknown): boolean {
  return error instanceof ProviderError && error.retryable;
}

/**
 * Backoff before retry number `retryIndex` (0-based): min(initial * 2^retryIndex, max), minus up
 * to `jitterRatio` of it. A server's `retryAfterMs` (already limited to < 60 s) wins.
 */
export function retryDelayMs(
  retryIndex: number,
  error: unknown,
  options: { initialDelayInMs: number; maxDelayInMs: number; jitterRatio: number; random: () => number },
): number {
  // Unlike openai-node, `retry-after: 0` is obeyed as "retry now" rather than ignored.
  if (error instanceof ProviderError && error.retryAfterMs !== undefined) return error.retryAfterMs;
  const backoffMs = Math.min(options.initialDelayInMs * 2 ** retryIndex, options.maxDelayInMs);
  return backoffMs * (1 - options.random() * options.jitterRatio);
}

/**
 * Runs `fn` until it succeeds, an error is not retryable, or `maxRetries` retries are spent.
 *
 * @example
 * const { result, attempts } = await withRetry((attempt) => callServer(attempt), { maxRetries: 2, signal });
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<RetryResult<T>> {
  const {
    maxRetries = 2,
    initialDelayInMs = 500,
    maxDelayInMs = 8000,
    jitterRatio = 0.25,
    signal,
    sleep = abortableSleep,
    random = Math.random,
    isRetryable = isRetryableError,
    onAttemptError,
  } = options;
  const errors: unknown[] = [];
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    try {
      return { result: await fn(attempt), attempts: attempt, errors };
    } catch (error) {
      // An abort is the caller's decision, not a failure to retry: rethrow its reason as fetch does.
      if (signal?.aborted) throw signal.reason;
      errors.push(error);
      const retryable = isRetryable(error);
      const willRetry = retryable && attempt <= maxRetries;
      const delayMs = willRetry ? retryDelayMs(attempt - 1, error, { initialDelayInMs, maxDelayInMs, jitterRatio, random }) : undefined;
      onAttemptError?.(delayMs === undefined ? { attempt, error, willRetry } : { attempt, error, willRetry, delayMs });
      if (!willRetry) throw new RetryError(errors, retryable ? 'maxRetriesExceeded' : 'errorNotRetryable');
      await sleep(delayMs ?? 0, signal);
    }
  }
}

/** setTimeout as a promise that rejects with the signal's reason when aborted. */
export function abortableSleep(delayMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, delayMs);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
