import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createRemoteEnvironment } from '../environment/index.js';
import { openStore } from '../store/index.js';
import { startChatServer, type ChatServer } from '../testing/index.js';
import { collectEpisodes } from './collect-episodes.js';

// Twenty self-consistency samples in flight per episode, on one signal shared by the run.
const PLAN = JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'sc', input: '', params: { samples: 20 } }], edges: [], answer: 'A' });

let server: ChatServer | undefined;
afterEach(() => server?.close());

it('adds no abort listener per call or per episode to the signals it shares (no MaxListenersExceededWarning)', async () => {
  let rateLimited = 0;
  server = await startChatServer({
    models: ['orch', 'work'],
    // Some 429s, so calls also sit in their backoff waits at the same time.
    handler: (body) => (body.model === 'orch' ? { text: PLAN } : ++rateLimited % 7 === 0 ? { status: 429, headers: { 'retry-after-ms': '5' } } : { text: '<answer>4</answer>', delayMs: 3 }),
  });
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  const directory = mkdtempSync(join(tmpdir(), 'orchrm-listeners-'));
  const environment = await createRemoteEnvironment(
    { type: 'openai', baseURL: server.url, apiKeyEnv: 'NO_KEY', models: { orchestrator: 'orch', worker: 'work', judge: 'work' }, timeoutMs: 10_000, maxRetries: 10, concurrency: 64, structuredOutput: false },
    Array.from({ length: 24 }, (_, index) => ({ id: `t${index}`, suite: 'jsonl', question: `What is ${index} + 4?`, answer: '4', metadata: {} })),
  );
  const store = openStore(join(directory, 'runs.db'));
  try {
    const summary = await collectEpisodes({
      environment,
      tasks: environment.tasks('train'),
      store,
      concurrency: 12,
      signal: new AbortController().signal,
    });
    expect(summary.failures).toEqual([]);
    expect(summary.byStatus).toEqual({ ok: 24 });
    expect(summary.calls.retries).toBeGreaterThan(0);
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  } finally {
    process.off('warning', onWarning);
    environment.close();
    store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});
