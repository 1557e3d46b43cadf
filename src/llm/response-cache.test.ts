import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../testing/chat-server.js';
import type { ChatRequest } from './chat-provider.js';
import { openStore } from '../store/index.js';
import { createChatProvider } from './create-chat-provider.js';
import { createOpenAiProvider } from './openai-provider.js';
import { parseProviderConfig } from './provider-config.js';
import { requestHash, sentRequestHash, withResponseCache } from './response-cache.js';

const models = { orchestrator: 'm', worker: 'm', judge: 'm' };
const request: ChatRequest = { slot: 'worker', messages: [{ role: 'user', content: 'Name a prime.' }], temperature: 0.7, seed: 1 };

let server: ChatServer;
let directory: string;
beforeEach(async () => {
  server = await startChatServer({ handler: (_body, index) => ({ text: `answer ${index}`, usage: { promptTokens: 5, completionTokens: 2 } }) });
  directory = mkdtempSync(join(tmpdir(), 'orchrm-cache-'));
});
afterEach(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

function cachedProvider(path = join(directory, 'nested', 'cache.sqlite')) {
  return withResponseCache(createOpenAiProvider({ baseURL: server.url, models }, { env: {} }), { database: path });
}

describe('withResponseCache', () => {
  it('serves a repeated request from SQLite without calling the server', async () => {
    const provider = cachedProvider();
    const first = await provider.chat(request);
    const second = await provider.chat({ ...request, signal: new AbortController().signal });
    expect(server.requests).toHaveLength(1);
    expect(first.cached).toBe(false);
    expect(second).toMatchObject({
      text: 'answer 0',
      usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7 },
      usageSource: 'provider',
      model: 'm',
      attempts: 1,
      cached: true,
      finishReason: 'stop',
    });
    provider.close();
  });

  it('misses on a different sampleIndex', async () => {
    const provider = cachedProvider();
    const first = await provider.chat(request);
    const other = await provider.chat({ ...request, sampleIndex: 1 });
    expect(other).toMatchObject({ text: 'answer 1', cached: false });
    expect((await provider.chat({ ...request, sampleIndex: 0 })).text).toBe(first.text);
    expect(server.requests).toHaveLength(2);
    provider.close();
  });

  it('persists across reopening the same file', async () => {
    const path = join(directory, 'cache.sqlite');
    const writer = cachedProvider(path);
    await writer.chat(request);
    writer.close();
    const reader = cachedProvider(path);
    expect(await reader.chat(request)).toMatchObject({ text: 'answer 0', cached: true });
    expect(server.requests).toHaveLength(1);
    reader.close();
  });

  it('keeps namespaces apart and leaves a database it was given open', async () => {
    const store = openStore(join(directory, 'shared.sqlite'));
    const database = store.db;
    const base = createOpenAiProvider({ baseURL: server.url, models }, { env: {} });
    const one = withResponseCache(base, { database, namespace: 'one' });
    const two = withResponseCache(base, { database, namespace: 'two' });
    await one.chat(request);
    expect((await two.chat(request)).cached).toBe(false);
    one.close();
    expect(database.prepare('SELECT count(*) AS rows FROM response_cache').get()).toEqual({ rows: 2 });
    store.close();
  });

  it('keys by the model a request is sent to: changing only the judge keeps every worker and orchestrator hit', async () => {
    const path = join(directory, 'roles.sqlite');
    const config = (judge: string) => parseProviderConfig({ type: 'openai', baseURL: server.url, models: { orchestrator: 'planner', worker: 'worker', judge } });
    const plan: ChatRequest = { ...request, slot: 'orchestrator' };
    const first = createChatProvider(config('judge-a'), { cacheDatabase: path, env: {} });
    await first.chat(request);
    await first.chat(plan);
    first.close();
    const second = createChatProvider(config('judge-b'), { cacheDatabase: path, env: {} });
    expect((await second.chat(request)).cached).toBe(true);
    expect((await second.chat(plan)).cached).toBe(true);
    expect((await second.chat({ ...request, slot: 'judge' })).cached).toBe(false);
    second.close();
    expect(server.requests.map((body) => body.model)).toEqual(['worker', 'planner', 'judge-b']);
  });

  it('still serves rows a format-1 cache wrote under the provider name', async () => {
    const path = join(directory, 'legacy.sqlite');
    const config = parseProviderConfig({ type: 'openai', baseURL: server.url, models });
    const writer = createChatProvider(config, { cacheDatabase: path, env: {} });
    await writer.chat(request);
    writer.close();
    // Rewrite the row the way orchrm 0.1 stored it: format 1, its provider name and requestHash.
    const database = new Database(path);
    database.prepare('UPDATE response_cache SET format_version = 1, namespace = ?, request_hash = ?, reasoning = NULL').run('openai(m)', requestHash(request));
    database.prepare('ALTER TABLE response_cache DROP COLUMN reasoning').run();
    database.close();
    const reader = createChatProvider(config, { cacheDatabase: path, env: {} });
    expect(await reader.chat(request)).toMatchObject({ text: 'answer 0', cached: true });
    reader.close();
    expect(server.requests).toHaveLength(1);
  });

  it('keeps reasoning with a cached response', async () => {
    await server.close();
    server = await startChatServer({ handler: () => ({ text: '<think>small primes first</think>7' }) });
    const provider = cachedProvider();
    await provider.chat(request);
    expect(await provider.chat(request)).toMatchObject({ text: '7', reasoning: 'small primes first', cached: true });
    provider.close();
  });

  it('does not store failures', async () => {
    await server.close();
    server = await startChatServer({ handler: (_body, index) => (index === 0 ? { status: 400 } : { text: 'fine' }) });
    const provider = cachedProvider();
    await expect(provider.chat(request)).rejects.toThrow('400');
    expect(await provider.chat(request)).toMatchObject({ text: 'fine', cached: false });
    provider.close();
  });
});

describe('requestHash', () => {
  it('ignores key order and the abort signal, and separates what changes the answer', () => {
    const base = requestHash(request);
    expect(requestHash({ seed: 1, temperature: 0.7, messages: request.messages, slot: 'worker', signal: AbortSignal.abort() })).toBe(base);
    expect(requestHash({ ...request, sampleIndex: 0 })).toBe(base);
    expect(requestHash({ ...request, sampleIndex: 1 })).not.toBe(base);
    expect(requestHash({ ...request, slot: 'judge' })).not.toBe(base);
    expect(requestHash({ ...request, temperature: 0.8 })).not.toBe(base);
    expect(requestHash({ ...request, model: 'other' })).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sentRequestHash leaves out the slot, which the server never sees', () => {
    expect(sentRequestHash(request, 'm')).toBe(sentRequestHash({ ...request, slot: 'judge' }, 'm'));
    expect(sentRequestHash(request, 'm')).not.toBe(sentRequestHash(request, 'other'));
    expect(sentRequestHash(request, 'm')).not.toBe(sentRequestHash({ ...request, sampleIndex: 1 }, 'm'));
  });
});
