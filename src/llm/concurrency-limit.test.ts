import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../testing/chat-server.js';
import { withConcurrencyLimit } from './concurrency-limit.js';
import { createOpenAiProvider } from './openai-provider.js';

let server: ChatServer | undefined;
afterEach(async () => server?.close());

/**
 * A server that holds requests until `batchSize` are waiting (or every expected request has
 * arrived), then answers them together. Overlap is then decided by the limit, not by timing.
 */
async function batchingServer(batchSize: number, totalRequests: number) {
  const waiting: (() => void)[] = [];
  let arrived = 0;
  server = await startChatServer({
    handler: async (_body, index) => {
      arrived++;
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (waiting.length === batchSize || arrived === totalRequests) for (const release of waiting.splice(0)) release();
      });
      return { text: `answer ${index}` };
    },
  });
  return server;
}

const models = { orchestrator: 'm', worker: 'm', judge: 'm' };

describe('withConcurrencyLimit', () => {
  it('keeps at most `limit` requests in flight at the server', async () => {
    const server = await batchingServer(3, 9);
    const provider = withConcurrencyLimit(createOpenAiProvider({ baseURL: server.url, models }, { env: {} }), 3);
    const responses = await Promise.all(
      Array.from({ length: 9 }, (_, index) => provider.chat({ slot: 'worker', messages: [{ role: 'user', content: `q${index}` }] })),
    );
    expect(responses).toHaveLength(9);
    expect(server.requests).toHaveLength(9);
    expect(server.maxInFlight).toBe(3);
  });

  it('lets every request through at once without the limit (the test can see overlap)', async () => {
    const server = await batchingServer(9, 9);
    const provider = createOpenAiProvider({ baseURL: server.url, models }, { env: {} });
    await Promise.all(Array.from({ length: 9 }, (_, index) => provider.chat({ slot: 'worker', messages: [{ role: 'user', content: `q${index}` }] })));
    expect(server.maxInFlight).toBe(9);
  });

  it('rejects a limit that is not a positive integer', () => {
    const provider = { name: 'none', chat: async () => Promise.reject(new Error('unused')) };
    expect(() => withConcurrencyLimit(provider, 0)).toThrow('limit must be a positive integer, got 0');
  });
});
