import OpenAI, { APIConnectionError, APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatProvider } from '../../llm/chat-provider.js';
import { createOpenAiProvider } from '../../llm/openai-provider.js';
import { ConnectionError, MalformedResponseError, RateLimitError, RequestTimeoutError, ServerError } from '../../llm/provider-errors.js';
import type { FaultConfigInput, FaultKind } from './fault-config.js';
import { createFaultInjector } from './fault-injector.js';
import { startOpenAiCompatibleServer, type OpenAiCompatibleServer } from './start-openai-compatible-server.js';

const echoProvider: ChatProvider = {
  name: 'echo',
  async chat(request) {
    const text = `echo: ${request.messages.at(-1)?.content ?? ''}`;
    return { text, usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7 }, usageSource: 'provider', latencyMs: 0, model: request.model ?? 'sim-worker', attempts: 1, cached: false };
  },
};

const RATE_FIELD: Record<FaultKind, keyof FaultConfigInput> = {
  rateLimit: 'rateLimitRate',
  serverError: 'serverErrorRate',
  truncate: 'truncateRate',
  garble: 'garbleRate',
  drop: 'dropRate',
  hang: 'hangRate',
};

/** The first seed whose first request gets `kind` and whose second gets no fault (read from the injector the server uses). */
function seedFaultingFirstRequestOnly(faults: FaultConfigInput, kind: FaultKind): number {
  for (let seed = 0; seed < 1000; seed++) {
    const injector = createFaultInjector(faults, seed);
    if (injector.decide(0).fault === kind && injector.decide(1).fault === undefined) return seed;
  }
  throw new Error(`no seed below 1000 faults only the first request with ${kind}`);
}

let server: OpenAiCompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(faults: FaultConfigInput, faultSeed = 0, closeTimeoutMs?: number) {
  server = await startOpenAiCompatibleServer({ provider: echoProvider, models: ['sim-worker'], faults, faultSeed, ...(closeTimeoutMs !== undefined && { closeTimeoutMs }) });
  return server;
}

function orchrmProvider(url: string, timeoutMs = 60_000) {
  const delaysMs: number[] = [];
  const attemptErrors: unknown[] = [];
  const provider = createOpenAiProvider(
    { baseURL: url, models: { orchestrator: 'sim-worker', worker: 'sim-worker', judge: 'sim-worker' }, maxRetries: 2, timeoutMs },
    { env: {}, retry: { sleep: async (delayMs) => void delaysMs.push(delayMs), random: () => 0, onAttemptError: (event) => attemptErrors.push(event.error) } },
  );
  return { provider, delaysMs, attemptErrors };
}

const question = { slot: 'worker' as const, messages: [{ role: 'user' as const, content: 'ping' }] };

describe('fault injection observed by clients', () => {
  it.each([
    ['rateLimit', RateLimitError, 429],
    ['serverError', ServerError, 500],
  ] as const)('%s: answers %i with retry-after, which our retry obeys', async (kind, errorClass, status) => {
    const faults = { [RATE_FIELD[kind]]: 0.5, retryAfterS: 3 };
    const server = await start(faults, seedFaultingFirstRequestOnly(faults, kind));
    const { provider, delaysMs, attemptErrors } = orchrmProvider(server.url);
    const response = await provider.chat(question);
    expect(response).toMatchObject({ text: 'echo: ping', attempts: 2 });
    expect(attemptErrors).toHaveLength(1);
    expect(attemptErrors[0]).toBeInstanceOf(errorClass);
    expect(attemptErrors[0]).toMatchObject({ status, retryAfterMs: 3000 });
    expect(delaysMs).toStrictEqual([3000]);
    expect(server.stats.faults[kind]).toBe(1);
  });

  it('rateLimit: the openai client sees OpenAI error fields and the header', async () => {
    const server = await start({ rateLimitRate: 1, retryAfterS: 2 });
    const client = new OpenAI({ baseURL: server.url, apiKey: 'unused', maxRetries: 0 });
    const error = await client.chat.completions.create({ model: 'sim-worker', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', type: 'requests' });
    expect((error as APIError).headers?.get('retry-after')).toBe('2');
  });

  it.each([
    ['truncate', MalformedResponseError],
    ['garble', MalformedResponseError],
    ['drop', ConnectionError],
    ['hang', RequestTimeoutError],
  ] as const)('%s: the attempt fails as %o and the retry succeeds', async (kind, errorClass) => {
    const faults = { [RATE_FIELD[kind]]: 0.5 };
    const server = await start(faults, seedFaultingFirstRequestOnly(faults, kind));
    // A short client timeout, so a held (hang) request is given up quickly; others answer well within it.
    const { provider, attemptErrors } = orchrmProvider(server.url, 300);
    const response = await provider.chat(question);
    expect(response).toMatchObject({ text: 'echo: ping', attempts: 2 });
    expect(attemptErrors).toHaveLength(1);
    expect(attemptErrors[0]).toBeInstanceOf(errorClass);
    expect(server.stats.faults).toStrictEqual({ rateLimit: 0, serverError: 0, truncate: 0, garble: 0, drop: 0, hang: 0, [kind]: 1 });
  });

  it('truncate declares the full length but sends only part of the body', async () => {
    const server = await start({ truncateRate: 1 });
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'sim-worker', messages: [{ role: 'user', content: 'x' }] }) });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(50);
    await expect(response.text()).rejects.toThrow(/terminated/);
  });

  it('garble sends a complete body that is not JSON', async () => {
    const server = await start({ garbleRate: 1 });
    const response = await fetch(`${server.url}/embeddings`, { method: 'POST', body: JSON.stringify({ model: 'sim-embedding', input: 'x' }) });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.startsWith('{')).toBe(true);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('drop closes the connection without an answer (openai client: connection error)', async () => {
    const server = await start({ dropRate: 1 });
    const client = new OpenAI({ baseURL: server.url, apiKey: 'unused', maxRetries: 0 });
    await expect(client.embeddings.create({ model: 'sim-embedding', input: 'x' })).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('hang holds the request without an answer; close drops it instead of waiting', async () => {
    // A grace period longer than the test timeout: the test fails if close() waited for the held request.
    const server = await start({ hangRate: 1 }, 0, 120_000);
    const pending = fetch(`${server.url}/embeddings`, { method: 'POST', body: JSON.stringify({ model: 'sim-embedding', input: 'x' }) });
    while (server.stats.faults.hang === 0) await new Promise((resolve) => setImmediate(resolve));
    await server.close();
    await expect(pending).rejects.toThrow();
  });

  it('faults chat completions and embeddings, never the models list', async () => {
    const server = await start({ serverErrorRate: 1, retryAfterS: 0 });
    const models = await fetch(`${server.url}/models`);
    expect(models.status).toBe(200);
    const embeddings = await fetch(`${server.url}/embeddings`, { method: 'POST', body: JSON.stringify({ model: 'sim-embedding', input: 'x' }) });
    expect(embeddings.status).toBe(500);
    expect(embeddings.headers.get('retry-after')).toBe('0');
    expect(server.stats.faults.serverError).toBe(1);
  });
});

describe('fault determinism and accounting', () => {
  const faults: FaultConfigInput = { rateLimitRate: 0.15, serverErrorRate: 0.1, truncateRate: 0.1, garbleRate: 0.1, dropRate: 0.1, retryAfterS: 0 };

  /** Sends `count` requests one after another and returns what each came back as. */
  async function outcomes(server: OpenAiCompatibleServer, count: number): Promise<string[]> {
    const seen: string[] = [];
    for (let index = 0; index < count; index++) {
      const path = index % 3 === 0 ? 'embeddings' : 'chat/completions';
      const body = path === 'embeddings' ? { model: 'sim-embedding', input: `text ${index}` } : { model: 'sim-worker', messages: [{ role: 'user', content: `q ${index}` }] };
      try {
        const response = await fetch(`${server.url}/${path}`, { method: 'POST', body: JSON.stringify(body) });
        const text = await response.text();
        seen.push(response.status !== 200 ? String(response.status) : isJson(text) ? 'ok' : 'garbled');
      } catch (error) {
        seen.push(`failed: ${(error as Error).message}`);
      }
    }
    return seen;
  }

  it('gives the same faults for the same seed and request sequence, and counts them', async () => {
    const first = await outcomes(await start(faults, 9), 60);
    const stats = server?.stats;
    await server?.close();
    const second = await outcomes(await start(faults, 9), 60);
    expect(second).toStrictEqual(first);
    await server?.close();
    const otherSeed = await outcomes(await start(faults, 10), 60);
    expect(otherSeed).not.toStrictEqual(first);

    const injector = createFaultInjector(faults, 9);
    const expected = { rateLimit: 0, serverError: 0, truncate: 0, garble: 0, drop: 0, hang: 0 };
    for (let index = 0; index < 60; index++) {
      const fault = injector.decide(index).fault;
      if (fault) expected[fault]++;
    }
    expect(stats?.faults).toStrictEqual(expected);
    expect(first.filter((outcome) => outcome === '429')).toHaveLength(expected.rateLimit);
    expect(first.filter((outcome) => outcome === '500')).toHaveLength(expected.serverError);
    expect(first.filter((outcome) => outcome === 'garbled')).toHaveLength(expected.garble);
    expect(first.filter((outcome) => outcome.startsWith('failed'))).toHaveLength(expected.truncate + expected.drop);
    expect(stats?.requests).toStrictEqual({ chatCompletions: 40, embeddings: 20, models: 0 });
  });

  it('applies the configured latency (checked through the stats, not the clock)', async () => {
    const latency = { latencyMs: { medianMs: 2, p99Ms: 12 } };
    const server = await start(latency, 4);
    await outcomes(server, 12);
    const delays = Array.from({ length: 12 }, (_, index) => createFaultInjector(latency, 4).decide(index).delayMs).filter((delayMs) => delayMs > 0);
    expect(server.stats.latency).toStrictEqual({
      delayedRequests: delays.length,
      totalDelayMs: delays.reduce((sum, delayMs) => sum + delayMs, 0),
      maxDelayMs: Math.max(...delays),
    });
    expect(delays.length).toBeGreaterThan(6);
    await server.close();

    const constant = await start({ latencyMs: { medianMs: 3, p99Ms: 0 } });
    await outcomes(constant, 5);
    expect(constant.stats.latency).toStrictEqual({ delayedRequests: 5, totalDelayMs: 15, maxDelayMs: 3 });
  });
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
