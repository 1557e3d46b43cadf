import { describe, expect, it } from 'vitest';
import { BadRequestError, RateLimitError, ServerError } from './provider-errors.js';
import { RetryError, retryDelayMs, withRetry, type AttemptError } from './retry.js';

function recordingSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (delayMs: number) => void delays.push(delayMs) };
}

describe('retryDelayMs', () => {
  const options = { initialDelayInMs: 500, maxDelayInMs: 8000, jitterRatio: 0.25, random: () => 0 };

  it('doubles from 500 ms up to 8 s', () => {
    expect([0, 1, 2, 3, 4, 5].map((index) => retryDelayMs(index, new ServerError('x'), options))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it('takes off at most 25% as jitter', () => {
    expect(retryDelayMs(0, new ServerError('x'), { ...options, random: () => 0.999999 })).toBeCloseTo(375, 3);
  });

  it("obeys the server's retry-after, including 0", () => {
    expect(retryDelayMs(3, new RateLimitError('x', { retryAfterMs: 0 }), options)).toBe(0);
    expect(retryDelayMs(0, new RateLimitError('x', { retryAfterMs: 1500 }), options)).toBe(1500);
  });
});

describe('withRetry', () => {
  it('returns the result and the attempts it took', async () => {
    const { sleep, delays } = recordingSleep();
    let calls = 0;
    const outcome = await withRetry(
      async (attempt) => {
        calls++;
        if (attempt < 3) throw new ServerError(`fail ${attempt}`);
        return 'ok';
      },
      { sleep, random: () => 0 },
    );
    expect(outcome.result).toBe('ok');
    expect(outcome.attempts).toBe(3);
    expect(outcome.errors.map((error) => (error as Error).message)).toEqual(['fail 1', 'fail 2']);
    expect(calls).toBe(3);
    expect(delays).toEqual([500, 1000]);
  });

  it('gives up after maxRetries + 1 attempts, keeping every error', async () => {
    const { sleep } = recordingSleep();
    const events: AttemptError[] = [];
    const error = await withRetry(
      async (attempt) => {
        throw new ServerError(`fail ${attempt}`, { status: 503 });
      },
      { maxRetries: 3, sleep, onAttemptError: (event) => events.push(event) },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RetryError);
    const retryError = error as RetryError;
    expect(retryError.reason).toBe('maxRetriesExceeded');
    expect(retryError.attempts).toBe(4);
    expect(retryError.errors.map((item) => (item as Error).message)).toEqual(['fail 1', 'fail 2', 'fail 3', 'fail 4']);
    expect(retryError.status).toBe(503);
    expect(retryError.message).toContain('failed after 4 attempts: fail 4');
    expect(events.map((event) => event.willRetry)).toEqual([true, true, true, false]);
  });

  it('does not retry an error that is not retryable', async () => {
    let calls = 0;
    const error = await withRetry(async () => {
      calls++;
      throw new BadRequestError('bad', { status: 400 });
    }).catch((caught: unknown) => caught);
    expect(calls).toBe(1);
    expect((error as RetryError).reason).toBe('errorNotRetryable');
    expect((error as RetryError).lastError).toBeInstanceOf(BadRequestError);
  });

  it('never retries errors that are not provider errors (our own bugs)', async () => {
    let calls = 0;
    const error = await withRetry(async () => {
      calls++;
      throw new TypeError('bug');
    }).catch((caught: unknown) => caught);
    expect(calls).toBe(1);
    expect((error as RetryError).lastError).toBeInstanceOf(TypeError);
  });

  it('stops waiting and rethrows the reason when aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const promise = withRetry(
      async () => {
        throw new ServerError('fail');
      },
      {
        signal: controller.signal,
        initialDelayInMs: 60_000,
        sleep: (delayMs, signal) =>
          new Promise((_resolve, reject) => {
            signal?.addEventListener('abort', () => reject(signal.reason));
            controller.abort(reason);
          }),
      },
    );
    await expect(promise).rejects.toBe(reason);
  });
});
