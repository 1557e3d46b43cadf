import { afterEach, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../core/errors.js';
import { startChatServer, type ChatServer, type ChatServerHandler } from '../testing/chat-server.js';
import type { ChatRequest } from './chat-provider.js';
import { createOpenAiProvider, type OpenAiProviderOptions } from './openai-provider.js';
import type { OpenAiProviderConfigInput } from './provider-config.js';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  MalformedResponseError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
} from './provider-errors.js';
import { RetryError } from './retry.js';

const models = { orchestrator: 'planner-model', worker: 'worker-model', judge: 'judge-model' };
const question: ChatRequest = { slot: 'worker', messages: [{ role: 'user', content: 'What is 6 times 7?' }] };

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(handler: ChatServerHandler, config: Partial<OpenAiProviderConfigInput> = {}, options: OpenAiProviderOptions = {}) {
  server = await startChatServer({ handler });
  const delays: number[] = [];
  const attemptErrors: unknown[] = [];
  const provider = createOpenAiProvider(
    { baseURL: server.url, models, ...config },
    {
      env: { OPENAI_API_KEY: 'secret-key' },
      retry: {
        sleep: async (delayMs) => void delays.push(delayMs),
        random: () => 0,
        onAttemptError: (event) => attemptErrors.push(event.error),
      },
      ...options,
    },
  );
  return { server, provider, delays, attemptErrors };
}

async function failure(promise: Promise<unknown>): Promise<RetryError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(RetryError);
  return error as RetryError;
}

describe('createOpenAiProvider', () => {
  it('refuses an out-of-range setting with an InvalidInputError naming the field, not a raw ZodError', () => {
    const models = { orchestrator: 'm', worker: 'm', judge: 'm' };
    const create = () => createOpenAiProvider({ baseURL: 'http://127.0.0.1:9/v1', models, maxRetries: 99 });
    expect(create).toThrow(InvalidInputError);
    expect(create).toThrow(/OpenAI provider config is invalid:\n  - maxRetries: maxRetries above 10/);
  });

  it('returns text, provider usage and model, and sends the request settings', async () => {
    const { server, provider } = await setup(() => ({ text: '42', usage: { promptTokens: 11, completionTokens: 3 }, finishReason: 'stop' }));
    const response = await provider.chat({ ...question, temperature: 0.3, maxTokens: 64, seed: 7, stop: ['\n\n'] });
    expect(response).toMatchObject({
      text: '42',
      usage: { promptTokens: 11, completionTokens: 3, totalTokens: 14 },
      usageSource: 'provider',
      model: 'worker-model',
      attempts: 1,
      cached: false,
      finishReason: 'stop',
    });
    expect(response.latencyMs).toBeGreaterThanOrEqual(0);
    expect(server.requests[0]).toMatchObject({
      model: 'worker-model',
      messages: [{ role: 'user', content: 'What is 6 times 7?' }],
      temperature: 0.3,
      max_tokens: 64,
      seed: 7,
      stop: ['\n\n'],
    });
    expect(server.requests[0]?.response_format).toBeUndefined();
  });

  it('is named after its models, which the response cache keys on', async () => {
    const { provider } = await setup(() => ({ text: 'ok' }));
    expect(provider.name).toBe('openai(orchestrator=planner-model, worker=worker-model, judge=judge-model)');
  });

  it('picks the model by slot, lets the request override it, and sends the key from the env var', async () => {
    const authorizations: (string | undefined)[] = [];
    const { server, provider } = await setup(
      (_body, _index, { headers }) => {
        authorizations.push(headers.authorization);
        return { text: 'ok' };
      },
      { apiKeyEnv: 'MY_SERVER_KEY' },
      { env: { MY_SERVER_KEY: 'key-123' } },
    );
    await provider.chat({ ...question, slot: 'orchestrator' });
    await provider.chat({ ...question, slot: 'judge' });
    await provider.chat({ ...question, model: 'node-model' });
    expect(server.requests.map((request) => request.model)).toEqual(['planner-model', 'judge-model', 'node-model']);
    expect(authorizations).toEqual(['Bearer key-123', 'Bearer key-123', 'Bearer key-123']);
  });

  it('counts usage with tiktoken when the server reports none', async () => {
    const { provider } = await setup(() => ({ text: 'The answer is 42.', usage: null }));
    const response = await provider.chat(question);
    expect(response.usageSource).toBe('counted');
    expect(response.usage.promptTokens).toBeGreaterThan(0);
    expect(response.usage.completionTokens).toBeGreaterThan(0);
    expect(response.usage.totalTokens).toBe(response.usage.promptTokens + response.usage.completionTokens);
  });

  it('retries a 429 with retry-after: 0 and counts the attempts', async () => {
    const { server, provider, delays } = await setup((_body, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '0' } } : { text: 'ok' },
    );
    const response = await provider.chat(question);
    expect(response.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([0]);
  });

  it('retries a 500 and waits what retry-after says', async () => {
    const { provider, delays } = await setup((_body, index) =>
      index === 0 ? { status: 500, headers: { 'retry-after': '2' } } : { text: 'ok' },
    );
    expect((await provider.chat(question)).attempts).toBe(2);
    expect(delays).toEqual([2000]);
  });

  it('gives up after maxRetries + 1 attempts and keeps every error', async () => {
    const { server, provider, delays } = await setup(() => ({ status: 500 }), { maxRetries: 3 });
    const error = await failure(provider.chat(question));
    expect(error.reason).toBe('maxRetriesExceeded');
    expect(error.attempts).toBe(4);
    expect(error.errors).toHaveLength(4);
    for (const attemptError of error.errors) expect(attemptError).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(4);
    expect(delays).toEqual([500, 1000, 2000]);
  });

  it('does not retry a 400', async () => {
    const { server, provider } = await setup(() => ({ status: 400, body: { error: { message: 'unknown model' } } }));
    const error = await failure(provider.chat(question));
    expect(error.reason).toBe('errorNotRetryable');
    expect(error.lastError).toBeInstanceOf(BadRequestError);
    expect(error.message).toContain('unknown model');
    expect(server.requests).toHaveLength(1);
  });

  it('names the API key variable on a 401 and does not retry', async () => {
    const { server, provider } = await setup(() => ({ status: 401 }), { apiKeyEnv: 'VLLM_KEY' }, { env: {} });
    const error = await failure(provider.chat(question));
    expect(error.lastError).toBeInstanceOf(AuthenticationError);
    expect(error.message).toContain('VLLM_KEY is not set');
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['a dropped connection', { destroy: true as const }, ConnectionError],
    ['a garbled body', { rawBody: '{"choices": [{"mess' }, MalformedResponseError],
    ['a truncated body', { rawBody: '{"choices": [', declaredLength: 4096 }, MalformedResponseError],
    ['JSON that is not a completion', { rawBody: '{"object": "error"}' }, MalformedResponseError],
  ])('retries %s', async (_name, fault, errorClass) => {
    const { provider, attemptErrors } = await setup((_body, index) => (index === 0 ? fault : { text: 'recovered' }));
    const response = await provider.chat(question);
    expect(response).toMatchObject({ text: 'recovered', attempts: 2 });
    expect(attemptErrors).toHaveLength(1);
    expect(attemptErrors[0]).toBeInstanceOf(errorClass);
  });

  it('times out a slow answer, retries, and reports RequestTimeoutError', async () => {
    const { server, provider } = await setup(() => ({ text: 'late', delayMs: 5_000 }), { timeoutMs: 50, maxRetries: 1 });
    const error = await failure(provider.chat(question));
    expect(error.attempts).toBe(2);
    for (const attemptError of error.errors) expect(attemptError).toBeInstanceOf(RequestTimeoutError);
    expect((error.lastError as RequestTimeoutError).timeoutMs).toBe(50);
    expect(server.requests).toHaveLength(2);
  });

  it('stops when the caller aborts, throwing the abort reason', async () => {
    const { provider } = await setup(() => ({ text: 'late', delayMs: 5_000 }));
    const controller = new AbortController();
    const reason = new Error('episode deadline');
    const promise = provider.chat({ ...question, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    await expect(promise).rejects.toBe(reason);
  });

  it('sends json_schema when enabled, falls back once on a 400 and remembers it', async () => {
    const responseFormat = { type: 'json_schema' as const, name: 'plan', schema: { type: 'object' } };
    const { server, provider } = await setup(
      (body) => (body.response_format ? { status: 400, body: { error: { message: 'response_format not supported' } } } : { text: '{}' }),
      { structuredOutput: true },
    );
    const first = await provider.chat({ ...question, responseFormat });
    expect(first).toMatchObject({ text: '{}', attempts: 2 });
    const second = await provider.chat({ ...question, responseFormat });
    expect(second.attempts).toBe(1);
    expect(server.requests.map((request) => request.response_format?.type ?? 'none')).toEqual(['json_schema', 'none', 'none']);
    expect(server.requests[0]?.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'plan', schema: { type: 'object' }, strict: true } });
  });

  it('ignores responseFormat when structuredOutput is off', async () => {
    const { server, provider } = await setup(() => ({ text: '{}' }));
    await provider.chat({ ...question, responseFormat: { type: 'json_schema', name: 'plan', schema: {} } });
    expect(server.requests[0]?.response_format).toBeUndefined();
  });

  it('keeps RateLimitError details on the attempts', async () => {
    const { provider } = await setup(() => ({ status: 429, headers: { 'retry-after-ms': '5' } }), { maxRetries: 0 });
    const error = await failure(provider.chat(question));
    expect(error.lastError).toBeInstanceOf(RateLimitError);
    expect((error.lastError as RateLimitError).retryAfterMs).toBe(5);
    expect(error.status).toBe(429);
  });
});
