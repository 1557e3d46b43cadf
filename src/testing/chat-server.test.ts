import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './chat-server.js';

let server: ChatServer | undefined;
afterEach(async () => server?.close());

async function post(url: string, body: unknown) {
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const chat = { model: 'test-model', messages: [{ role: 'user', content: 'two words' }] };

describe('startChatServer', () => {
  it('echoes by default and reports a word-count usage', async () => {
    server = await startChatServer();
    const response = await post(server.url, chat);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toMatchObject({
      object: 'chat.completion',
      model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content: 'echo: two words' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 },
    });
    expect(server.requests).toEqual([chat]);
  });

  it('omits usage when the reply says null and passes the request index', async () => {
    const indexes: number[] = [];
    server = await startChatServer({
      handler: (_body, index) => {
        indexes.push(index);
        return { text: 'no usage', usage: null, model: 'served-model' };
      },
    });
    await post(server.url, chat);
    const body = JSON.parse((await post(server.url, chat)).text);
    expect(body).not.toHaveProperty('usage');
    expect(body.model).toBe('served-model');
    expect(indexes).toEqual([0, 1]);
  });

  it('scripts error statuses with headers', async () => {
    server = await startChatServer({ handler: () => ({ status: 429, headers: { 'retry-after': '3' } }) });
    const response = await post(server.url, chat);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect(JSON.parse(response.text)).toEqual({ error: { message: 'scripted 429', type: 'scripted_error' } });
  });

  it('sends raw bodies and drops connections', async () => {
    server = await startChatServer({ handler: (_body, index) => (index === 0 ? { rawBody: '{"choi' } : { destroy: true }) });
    expect((await post(server.url, chat)).text).toBe('{"choi');
    await expect(post(server.url, chat)).rejects.toThrow('fetch failed');
  });

  it('rejects invalid bodies with a 400 naming the field, without calling the handler', async () => {
    let calls = 0;
    server = await startChatServer({
      handler: () => {
        calls++;
        return { text: 'x' };
      },
    });
    const missing = await post(server.url, { model: 'test-model', messages: [] });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text).error.message).toMatch(/^messages: /);
    expect((await post(server.url, '{not json')).status).toBe(400);
    expect(calls).toBe(0);
    expect(server.requests).toEqual([]);
  });

  it('lists models and answers 404 elsewhere', async () => {
    server = await startChatServer({ models: ['a', 'b'] });
    const models = await (await fetch(`${server.url}/models`)).json();
    expect(models).toEqual({
      object: 'list',
      data: [
        { id: 'a', object: 'model', created: 0, owned_by: 'orchrm' },
        { id: 'b', object: 'model', created: 0, owned_by: 'orchrm' },
      ],
    });
    expect((await fetch(`${server.url}/embeddings`, { method: 'POST' })).status).toBe(404);
  });

  it('turns a handler that throws into a 500 marked not-retryable', async () => {
    server = await startChatServer({
      handler: () => {
        throw new Error('test bug');
      },
    });
    const response = await post(server.url, chat);
    expect(response.status).toBe(500);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(response.text).toContain('test bug');
    expect(server.inFlight).toBe(0);
  });
});
