import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../testing/chat-server.js';
import { createChatProvider } from './create-chat-provider.js';
import { parseProviderConfig } from './provider-config.js';

let server: ChatServer | undefined;
let directory: string | undefined;
afterEach(async () => {
  await server?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe('createChatProvider', () => {
  it('builds the configured provider with its concurrency limit and cache', async () => {
    server = await startChatServer({ handler: (_body, index) => ({ text: `answer ${index}` }) });
    directory = mkdtempSync(join(tmpdir(), 'orchrm-provider-'));
    const config = parseProviderConfig({
      type: 'openai',
      baseURL: server.url,
      models: { orchestrator: 'm', worker: 'm', judge: 'm' },
      concurrency: 2,
      cache: { path: join(directory, 'cache.sqlite') },
    });
    const provider = createChatProvider(config, { env: {} });
    const requests = Array.from({ length: 6 }, (_, index) => ({ slot: 'worker' as const, messages: [{ role: 'user' as const, content: `q${index}` }] }));
    await Promise.all(requests.map((request) => provider.chat(request)));
    expect(server.maxInFlight).toBeLessThanOrEqual(2);
    const again = await provider.chat(requests[0]!);
    expect(again.cached).toBe(true);
    expect(server.requests).toHaveLength(6);
    provider.close();
  });

  it('uses a cache database given by the caller, and none when neither is set', async () => {
    server = await startChatServer();
    directory = mkdtempSync(join(tmpdir(), 'orchrm-provider-'));
    const config = parseProviderConfig({ type: 'openai', baseURL: server.url, models: { orchestrator: 'm', worker: 'm', judge: 'm' } });
    const request = { slot: 'worker' as const, messages: [{ role: 'user' as const, content: 'hi' }] };
    const uncached = createChatProvider(config, { env: {} });
    await uncached.chat(request);
    expect((await uncached.chat(request)).cached).toBe(false);
    const cached = createChatProvider(config, { env: {}, cacheDatabase: join(directory, 'run.db') });
    await cached.chat(request);
    expect((await cached.chat(request)).cached).toBe(true);
    cached.close();
  });
});
