import { request as httpRequest } from 'node:http';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../core/errors.js';
import type { ChatProvider, ChatRequest, ChatResponse } from '../../llm/chat-provider.js';
import { startOpenAiCompatibleServer, type OpenAiCompatibleServer, type OpenAiCompatibleServerOptions } from './start-openai-compatible-server.js';

function answer(request: ChatRequest): ChatResponse {
  return { text: 'fine', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, usageSource: 'provider', latencyMs: 0, model: request.model ?? '', attempts: 1, cached: false };
}

const fineProvider: ChatProvider = { name: 'fine', chat: async (request) => answer(request) };

let server: OpenAiCompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Partial<OpenAiCompatibleServerOptions> = {}) {
  server = await startOpenAiCompatibleServer({ provider: fineProvider, models: ['sim-worker'], ...options });
  return server;
}

type ErrorJson = { error: { message: string; type: string; code: string | null; param: string | null } };

async function post(path: string, body: unknown): Promise<{ status: number; headers: Headers; json: ErrorJson }> {
  const response = await fetch(`${server?.url}${path}`, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, headers: response.headers, json: (await response.json()) as ErrorJson };
}

const chat = (extra: Record<string, unknown>) => ({ model: 'sim-worker', messages: [{ role: 'user', content: 'hi' }], ...extra });

describe('bad requests get a clear 4xx in OpenAI error shape', () => {
  it('400 for a body that is not JSON', async () => {
    await start();
    const { status, json } = await post('/chat/completions', '{"model": ');
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
    expect(json.error.message).toMatch(/^request body is not valid JSON/);
  });

  it.each([
    ['content parts', chat({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }), 'messages[0].content', /content must be a string/],
    ['null content', chat({ messages: [{ role: 'assistant', content: null }] }), 'messages[0].content', /content must be a string/],
    ['a tool message', chat({ messages: [{ role: 'tool', content: 'x' }] }), 'messages[0].role', /tool messages are not supported/],
    ['no messages', chat({ messages: [] }), 'messages', /at least one message/],
    ['n above 1', chat({ n: 2 }), 'n', /n must be 1/],
    ['streaming', chat({ stream: true }), 'stream', /streaming is not supported/],
    ['tools', chat({ tools: [{ type: 'function', function: { name: 'f' } }] }), 'tools', /tools are not supported/],
    ['a temperature above 2', chat({ temperature: 3 }), 'temperature', /2/],
    ['an unknown response format', chat({ response_format: { type: 'xml' } }), 'response_format.type', /text, json_object or json_schema/],
    ['a missing model', { messages: [{ role: 'user', content: 'hi' }] }, 'model', /model must be a string/],
  ])('400 for %s', async (_, body, param, message) => {
    await start();
    const { status, json } = await post('/chat/completions', body);
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ type: 'invalid_request_error', param });
    expect(json.error.message).toMatch(message);
    expect(json.error.message.startsWith(`${param}: `)).toBe(true);
  });

  it('400 for embeddings of token arrays or empty text', async () => {
    await start();
    for (const input of [[1, 2, 3], '', []]) {
      const { status, json } = await post('/embeddings', { model: 'sim-embedding', input });
      expect(status).toBe(400);
      expect(json.error.message).toMatch(/input must be a non-empty string or an array/);
    }
  });

  it('streaming through the openai client is refused with a message that says so', async () => {
    await start();
    const client = new OpenAI({ baseURL: server?.url, apiKey: 'unused', maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'sim-worker', messages: [{ role: 'user', content: 'hi' }], stream: true })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/streaming is not supported/),
    });
  });

  it('404 for unknown routes, 405 with allow for wrong methods', async () => {
    await start();
    const unknown = await fetch(`${server?.url}/completions`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'unknown_url' } });
    const wrongMethod = await fetch(`${server?.url}/chat/completions`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    const postModels = await fetch(`${server?.url}/models`, { method: 'POST' });
    expect(postModels.status).toBe(405);
    expect(postModels.headers.get('allow')).toBe('GET');
    expect(server?.stats.invalid).toBe(3);
  });

  it('413 for a body over the limit, declared or streamed, and keeps serving', async () => {
    await start({ maxBodyBytes: 1024 });
    const declared = await post('/chat/completions', chat({ messages: [{ role: 'user', content: 'x'.repeat(2000) }] }));
    expect(declared.status).toBe(413);
    expect(declared.json.error.message).toMatch(/larger than 1024 bytes/);

    const streamed = await new Promise<number>((resolve, reject) => {
      // Chunked transfer: no content-length, so the limit is found while reading.
      const request = httpRequest(`${server?.url}/chat/completions`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      for (let chunk = 0; chunk < 8; chunk++) request.write('x'.repeat(512));
      request.end();
    });
    expect(streamed).toBe(413);
    expect((await post('/chat/completions', chat({}))).status).toBe(200);
  });

  it('400 when the provider rejects the request, 500 without retry when it breaks', async () => {
    let calls = 0;
    await start({
      provider: {
        name: 'picky',
        async chat(request) {
          calls++;
          if (request.messages[0]?.content === 'unreadable') throw new UserError('the simulated worker cannot read this prompt; send a block prompt');
          if (request.messages[0]?.content === 'crash') throw new TypeError('x is undefined');
          return answer(request);
        },
      },
    });
    const rejected = await post('/chat/completions', chat({ messages: [{ role: 'user', content: 'unreadable' }] }));
    expect(rejected.status).toBe(400);
    expect(rejected.json.error.message).toBe('the simulated worker cannot read this prompt; send a block prompt');
    const crashed = await post('/chat/completions', chat({ messages: [{ role: 'user', content: 'crash' }] }));
    expect(crashed.status).toBe(500);
    expect(crashed.headers.get('x-should-retry')).toBe('false');
    expect(crashed.json.error.message).toMatch(/x is undefined/);
    expect(calls).toBe(2);
    expect(server?.stats).toMatchObject({ invalid: 1, failed: 1 });
  });
});

describe('close', () => {
  it('lets an in-flight request finish, then stops listening; closing twice is fine', async () => {
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const requestStarted = new Promise<void>((resolve) => (started = resolve));
    await start({
      provider: {
        name: 'slow',
        async chat(request) {
          started();
          await new Promise<void>((resolve) => (release = resolve));
          return answer(request);
        },
      },
    });
    const url = server?.url ?? '';
    const pending = fetch(`${url}/chat/completions`, { method: 'POST', body: JSON.stringify(chat({})) });
    await requestStarted;
    const closed = server?.close();
    release();
    const response = await pending;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ choices: [{ message: { content: 'fine' } }] });
    await closed;
    await server?.close();
    await expect(fetch(`${url}/models`)).rejects.toThrow();
  });
});

describe('a client that goes away', () => {
  it('aborts the provider call and is not counted as a failure', async () => {
    let started: () => void = () => undefined;
    const requestStarted = new Promise<void>((resolve) => (started = resolve));
    let aborted: (reason: unknown) => void = () => undefined;
    const providerAborted = new Promise<unknown>((resolve) => (aborted = resolve));
    await start({
      provider: {
        name: 'waits for abort',
        chat: (request) =>
          new Promise<ChatResponse>((_, reject) => {
            started();
            request.signal?.addEventListener('abort', () => {
              aborted(request.signal?.reason);
              reject(request.signal?.reason);
            });
          }),
      },
    });
    const client = new AbortController();
    const pending = fetch(`${server?.url}/chat/completions`, { method: 'POST', body: JSON.stringify(chat({})), signal: client.signal });
    await requestStarted;
    client.abort();
    await expect(pending).rejects.toThrow();
    expect(String(await providerAborted)).toMatch(/the client closed the connection/);
    // One more round trip, so the aborted request's rejection has surely been handled.
    expect((await fetch(`${server?.url}/models`)).status).toBe(200);
    expect(server?.stats).toMatchObject({ invalid: 0, failed: 0, requests: { chatCompletions: 1, models: 1 } });
  });
});
