import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../store/index.js';
import { startChatServer, type ChatServer, type ChatServerHandler } from '../../testing/index.js';
import { runCommand } from '../test-fixtures/run-command.js';
import { registerCollectCommand } from './collect.js';

const PLAN = JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'cot', input: '', params: {} }], edges: [], answer: 'A' });
const works: ChatServerHandler = (body) => ({ text: body.model === 'orch' ? PLAN : 'Five.\n<answer>5</answer>', delayMs: 2 });

let directory: string;
let server: ChatServer | undefined;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-collect-fail-'));
  writeFileSync(join(directory, 'tasks.jsonl'), Array.from({ length: 6 }, (_, index) => JSON.stringify({ id: `q${index}`, question: `What is 2 + ${index}?`, answer: String(2 + index) })).join('\n'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  delete process.env.ORCHRM_FAIL_KEY;
  rmSync(directory, { recursive: true, force: true });
});

function providerFile(baseURL: string, extra: Record<string, unknown> = {}): string {
  const path = join(directory, 'provider.json');
  writeFileSync(path, JSON.stringify({ type: 'openai', baseURL, apiKeyEnv: 'ORCHRM_FAIL_KEY', models: { orchestrator: 'orch', worker: 'work', judge: 'judge' }, maxRetries: 0, ...extra }));
  return path;
}

function collect(provider: string, ...extra: string[]) {
  const db = join(directory, 'runs.db');
  return { db, output: runCommand(registerCollectCommand, ['collect', '--tasks', join(directory, 'tasks.jsonl'), '--provider', provider, '--db', db, '--plans-per-task', '2', ...extra]) };
}

/** A port nothing listens on: bound, read, closed. */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('orchrm collect fails loudly before spending', () => {
  it('against a dead server: exit 2 within seconds, names the server, writes no database', async () => {
    const startedAt = Date.now();
    const { db, output } = collect(providerFile(`http://127.0.0.1:${await deadPort()}/v1`));
    const { exitCode, stderr } = await output;
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(/^orchrm: could not reach http:\/\/127\.0\.0\.1:\d+\/v1: .*ECONNREFUSED.*; check that the server is running\n$/);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(existsSync(db)).toBe(false);
  });

  it('against a server that answers 401: names the key variable', async () => {
    // Every request, GET /v1/models included, gets OpenAI's 401 body.
    const refusing = createHttpServer((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }));
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = refusing.address() as { port: number };
      const startedAt = Date.now();
      const { db, output } = collect(providerFile(`http://127.0.0.1:${port}/v1`));
      const { exitCode, stderr } = await output;
      expect(exitCode).toBe(2);
      expect(stderr).toContain('answered 401 (Incorrect API key provided): ORCHRM_FAIL_KEY is not set; put a valid API key in the environment variable ORCHRM_FAIL_KEY');
      expect(Date.now() - startedAt).toBeLessThan(10_000);
      expect(existsSync(db)).toBe(false);
    } finally {
      refusing.closeAllConnections();
      await new Promise((resolve) => refusing.close(resolve));
    }
  });

  it('with a model name the server does not serve: names the config field and lists what it serves', async () => {
    server = await startChatServer({ handler: works, models: ['orch', 'worker-7b'] });
    const startedAt = Date.now();
    const { db, output } = collect(providerFile(server.url));
    const { exitCode, stderr } = await output;
    expect(exitCode).toBe(2);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(stderr).toContain(`does not serve "work" (models.worker in ${join(directory, 'provider.json')}); it serves "orch", "worker-7b". Put one of the served names in the provider config`);
    expect(server.requests).toHaveLength(0);
    expect(existsSync(db)).toBe(false);
  });
});

describe('orchrm collect when calls fail mid-run', () => {
  it('stops when the same error ends episodes in a row, prints it and how to resume, exit 1', async () => {
    // The models are listed, but every worker call is refused.
    server = await startChatServer({
      models: ['orch', 'work'],
      handler: (body) => (body.model === 'work' ? { status: 400, body: { error: { message: 'context length exceeded', type: 'invalid_request_error' } } } : works(body, 0, { headers: {} })),
    });
    const { db, output } = collect(providerFile(server.url, { concurrency: 1 }), '--stop-after-failures', '3');
    const { exitCode, stderr, stdout } = await output;
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/orchrm: stopped run (run_\w+): the last 3 episodes failed with the same error, and so would the rest: .*context length exceeded/);
    expect(stderr).toMatch(/fix that, then resume with: npx orchrm collect .* --resume run_\w+\n/);
    expect(stdout).toMatch(/run run_\w+: 3 of 12 episodes/);
    expect(stdout).toMatch(/failed {5}3 episode\(s\): .*context length exceeded/);
    const store = openStore(db, { readonly: true });
    const [episode] = store.listEpisodes({});
    expect(store.getRun(episode!.runId!)?.status).toBe('failed');
    store.close();
  });

  it('exits 1 when every episode failed, even too few to stop the run', async () => {
    server = await startChatServer({ models: ['orch', 'work'], handler: (body) => (body.model === 'work' ? { status: 500 } : works(body, 0, { headers: {} })) });
    writeFileSync(join(directory, 'tasks.jsonl'), JSON.stringify({ id: 'q1', question: 'What is 2 + 3?', answer: '5' }));
    const { output } = collect(providerFile(server.url), '--json');
    const { exitCode, stderr, stdout } = await output;
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/orchrm: every episode failed; the most frequent error: .*answered 500/);
    expect(JSON.parse(stdout)).toMatchObject({ episodes: 2, byStatus: { server_error: 2 }, failures: [{ episodes: 2, message: expect.stringContaining('answered 500') }] });
  });

  it('a server failure is not a plan failure: kept apart, exit 1 beyond --max-server-failures, the printed command finishes the run', async () => {
    // The server fails every worker call of one task of six: 2 of 12 episodes, more than 2%.
    let healthy = false;
    server = await startChatServer({
      models: ['orch', 'work'],
      handler: (body, index, request) => (!healthy && body.model === 'work' && JSON.stringify(body.messages).includes('2 + 3') ? { status: 503 } : works(body, index, request)),
    });
    const provider = providerFile(server.url, { concurrency: 1 });
    const first = await collect(provider, '--json').output;
    expect(first.exitCode).toBe(1);
    expect(JSON.parse(first.stdout)).toMatchObject({ episodes: 12, byStatus: { ok: 10, server_error: 2 } });
    expect(first.stderr).toMatch(/orchrm: 2 of 12 episodes \(16\.7%\) of run run_\w+ ended in a server failure after their retries, more than the 2\.0% a run may lose \(--max-server-failures\); they are stored apart \(status server_error\) and never mined\.\n {2}finish the run on a healthy server with: npx orchrm collect .* --resume run_\w+\n/);
    const store = openStore(join(directory, 'runs.db'), { readonly: true });
    const runId = store.listEpisodes({})[0]!.runId!;
    expect(store.getRun(runId)?.status).toBe('failed');
    store.close();

    // Below the threshold the run still says how to finish it, but exits 0.
    const tolerant = await collect(provider, '--json', '--max-server-failures', '0.5').output;
    expect(tolerant.exitCode).toBeUndefined();
    expect(tolerant.stderr).toContain('finish the run on a healthy server with:');

    healthy = true;
    const resumeArgs = /--resume (run_\w+)/.exec(first.stderr)!;
    const second = await collect(provider, '--json', '--resume', resumeArgs[1]!).output;
    expect(second.exitCode).toBeUndefined();
    expect(JSON.parse(second.stdout)).toMatchObject({ episodes: 12, skipped: 10, byStatus: { ok: 12 } });
    const after = openStore(join(directory, 'runs.db'), { readonly: true });
    expect(after.listEpisodes({})).toHaveLength(12);
    expect(after.getRun(runId)?.status).toBe('completed');
    after.close();
  });
});

describe('orchrm collect interrupted and resumed', () => {
  it('Ctrl-C prints the resume command; the resumed summary covers the whole run', async () => {
    let answered = 0;
    server = await startChatServer({
      models: ['orch', 'work'],
      handler: (body) => {
        // Interrupt once a few episodes are in: SIGINT as the terminal sends it on Ctrl-C.
        if (body.model === 'work' && ++answered === 4) setImmediate(() => process.emit('SIGINT'));
        return works(body, 0, { headers: {} });
      },
    });
    const provider = providerFile(server.url, { concurrency: 1 });
    const first = await collect(provider, '--seed', '5').output;
    expect(first.exitCode).toBe(130);
    expect(first.stderr).toMatch(/orchrm: interrupted: run (run_\w+) holds (\d+) of 12 episodes in .*runs\.db; the ones in flight were dropped and will be redone\.\n {2}resume with: npx orchrm collect .* --seed 5 --resume run_\w+\n/);
    const committed = Number(/holds (\d+) of 12/.exec(first.stderr)![1]);
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThan(12);

    // Running the same command again continues the run, and its summary counts every episode.
    const second = await collect(provider, '--seed', '5', '--json').output;
    expect(second.exitCode).toBeUndefined();
    expect(second.stderr).toMatch(new RegExp(`continuing run run_\\w+: ${committed} of 12 episodes were committed earlier`));
    const summary = JSON.parse(second.stdout);
    expect(summary).toMatchObject({ episodes: 12, skipped: committed, total: 12, byStatus: { ok: 12 }, graded: 12, continued: true });
    expect(summary.calls.total).toBe(24);
    const store = openStore(join(directory, 'runs.db'), { readonly: true });
    const episodes = store.listEpisodes({});
    expect(episodes).toHaveLength(12);
    expect(new Set(episodes.map((episode) => episode.runId)).size).toBe(1);
    expect(store.getRun(episodes[0]!.runId!)?.status).toBe('completed');
    store.close();
  });

  it('--events prints one JSON line per event; --concurrency defaults to the provider config', async () => {
    server = await startChatServer({ models: ['orch', 'work'], handler: works });
    const { db, output } = collect(providerFile(server.url, { concurrency: 3 }), '--events');
    const { stdout, exitCode } = await output;
    expect(exitCode).toBeUndefined();
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; done?: number; etaMs?: number | null; tokens?: number });
    expect(events.map((event) => event.type)).toEqual(['collect-start', ...Array(12).fill('episode-end'), 'collect-end']);
    const last = events.at(-2)!;
    expect(last).toMatchObject({ done: 12, total: 12, failed: 0, etaMs: 0 });
    expect(last.tokens).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ summary: { episodes: 12 }, stopped: null });
    const store = openStore(db, { readonly: true });
    expect(store.getRun(store.listEpisodes({})[0]!.runId!)?.config.concurrency).toBe(3);
    store.close();
  });
});
