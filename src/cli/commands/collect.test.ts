import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../store/index.js';
import { startChatServer, type ChatServer } from '../../testing/index.js';
import type { ChatCompletionBody } from '../../testing/index.js';
import { runCommand } from '../test-fixtures/run-command.js';
import { registerCollectCommand } from './collect.js';
import { BUILT_CLI, ensureBuilt } from '../test-fixtures/built-package.js';

const run = promisify(execFile);
const MAIN = BUILT_CLI;
beforeAll(ensureBuilt, 300_000);

/** Every built-in block kind in one plan: search -> sc, debate -> reflexion. */
const PLAN = `Here is my plan.
\`\`\`json
{
  "dom": "high",
  "thinking": "search first, then vote, debate and check",
  "nodes": [
    { "id": "A", "agent": "search", "input": "Find the facts about alpha.", "params": { "topK": 2, "maxIterations": 2 } },
    { "id": "B", "agent": "sc", "input": "Using \${A}, compute the answer.", "params": { "samples": 3 } },
    { "id": "C", "agent": "debate", "input": "", "params": { "roles": ["Mathematician", "Skeptic"], "rounds": 2 } },
    { "id": "D", "agent": "reflexion", "input": "Reconcile \${B} and \${C}.", "params": { "maxRounds": 2 } }
  ],
  "edges": [ { "from": "A", "to": "B" }, { "from": "B", "to": "D" }, { "from": "C", "to": "D" } ],
  "answer": "D"
}
\`\`\``;

function lastUserMessage(body: ChatCompletionBody): string {
  const users = body.messages.filter((message) => message.role === 'user');
  return String(users[users.length - 1]?.content ?? '');
}

/** Plays orchestrator and workers; worker replies omit `usage` so orchrm must count tokens. */
function handler(body: ChatCompletionBody) {
  if (body.model === 'orch') return { text: PLAN, usage: { promptTokens: 400, completionTokens: 120 } };
  const message = lastUserMessage(body);
  const step = /^Step: (\S+)/.exec(message)?.[1];
  if (step === 'critique') return { text: 'Every step checks out.\n<verdict>correct</verdict>', usage: null };
  if (step === 'search' && !body.messages.some((m) => String(m.content).includes('Search results:'))) {
    return { text: 'I need the alpha facts.\n<search>alpha facts</search>', usage: null };
  }
  return { text: 'Two plus three is five.\n<answer>5</answer>', usage: null };
}

describe('orchrm collect against an OpenAI-compatible server on 127.0.0.1', () => {
  let server: ChatServer;
  let dir: string;
  let db: string;
  let collected: { stdout: string; stderr: string };

  beforeAll(async () => {
    server = await startChatServer({ handler, models: ['orch', 'work', 'judge'] });
    dir = mkdtempSync(join(tmpdir(), 'orchrm-collect-'));
    db = join(dir, 'runs.db');
    writeFileSync(
      join(dir, 'tasks.jsonl'),
      [
        { id: 'q1', question: 'What is 2 + 3?', answer: '5' },
        { id: 'q2', question: 'What is 2 + 4?', answer: '6' },
      ]
        .map((task) => JSON.stringify(task))
        .join('\n'),
    );
    writeFileSync(
      join(dir, 'corpus.jsonl'),
      [
        { id: 'd1', title: 'Alpha', text: 'Alpha facts: two plus three is five.' },
        { id: 'd2', title: 'Beta', text: 'Beta is unrelated.' },
      ]
        .map((doc) => JSON.stringify(doc))
        .join('\n'),
    );
    writeFileSync(
      join(dir, 'provider.json'),
      JSON.stringify({
        type: 'openai',
        baseURL: server.url,
        apiKeyEnv: 'ORCHRM_TEST_KEY',
        models: { orchestrator: 'orch', worker: 'work', judge: 'judge' },
        concurrency: 4,
      }),
    );
    collected = await run(
      process.execPath,
      [MAIN, 'collect', '--tasks', join(dir, 'tasks.jsonl'), '--provider', join(dir, 'provider.json'),
        '--corpus', join(dir, 'corpus.jsonl'), '--plans-per-task', '2', '--concurrency', '2', '--db', db, '--seed', '3', '--json'],
      { env: { ...process.env, ORCHRM_TEST_KEY: 'test' } },
    );
  }, 60_000);

  afterAll(async () => {
    await server.close();
  });

  it('prints a summary with accuracy and tokens split by role', () => {
    const summary = JSON.parse(collected.stdout);
    expect(summary).toMatchObject({ episodes: 4, byStatus: { ok: 4 }, graded: 4, correct: 2, accuracy: 0.5 });
    expect(summary.tokens.orchestrator.totalTokens).toBe(4 * 520);
    expect(summary.tokens.execution.totalTokens).toBeGreaterThan(0);
    // 1 orchestrator call + search 2 + sc 3 + debate 2x2+1 + reflexion 2 per episode.
    expect(summary.calls).toEqual({ total: 4 * 13, failed: 0, retries: 0, cached: 0 });
    expect(collected.stderr).toContain('collect: 4/4');
  });

  it('stores every node, call, artifact and token of every episode', () => {
    const store = openStore(db, { readonly: true });
    try {
      const episodes = [...store.iterateEpisodes({})];
      expect(episodes).toHaveLength(4);
      for (const episode of episodes) {
        expect(episode.status).toBe('ok');
        expect(episode.orchestratorCall?.usageSource).toBe('provider');
        expect(episode.nodes.map((node) => [node.nodeId, node.agent, node.status, node.calls.length])).toEqual([
          ['A', 'search', 'ok', 2],
          ['B', 'sc', 'ok', 3],
          ['C', 'debate', 'ok', 5],
          ['D', 'reflexion', 'ok', 2],
        ]);
        const [search, sc, debate, reflexion] = episode.nodes;
        expect(search?.artifacts).toMatchObject({ kind: 'search', steps: [{ query: 'alpha facts', docIds: ['d1'] }] });
        expect(sc?.artifacts).toMatchObject({ kind: 'sc', votes: [{ answer: '5', count: 3 }], voteShare: 1 });
        expect(debate?.artifacts).toMatchObject({ kind: 'debate', roles: ['Mathematician', 'Skeptic'], converged: true });
        expect(reflexion?.artifacts).toMatchObject({ kind: 'reflexion', acceptedAtRound: 0 });
        expect(sc?.input).toBe('Using 5, compute the answer.');
        for (const call of episode.nodes.flatMap((node) => node.calls)) {
          expect(call.usageSource).toBe('counted');
          expect(call.usage.totalTokens).toBeGreaterThan(0);
          expect(call.messages).toBeUndefined();
        }
        const nodeTokens = episode.nodes.reduce((sum, node) => sum + node.usage.totalTokens, 0);
        expect(episode.usage.execution.totalTokens).toBe(nodeTokens);
        expect(episode.finalAnswer).toBe('5');
        expect(episode.grade?.correct).toBe(episode.task.id === 'q1');
      }
    } finally {
      store.close();
    }
  });

  it('shows one episode readably with orchrm inspect', async () => {
    const store = openStore(db, { readonly: true });
    const [summary] = store.listEpisodes({ taskId: 'q2' });
    store.close();
    const { stdout } = await run(process.execPath, [MAIN, 'inspect', summary?.id ?? '', '--db', db]);
    for (const expected of ['What is 2 + 4?', 'search', 'alpha facts', 'Mathematician', 'reflexion', 'orchestrator']) {
      expect(stdout).toContain(expected);
    }
  });

  it('says a re-run is complete instead of duplicating it; --new-run collects it again from the cache', async () => {
    const args = ['collect', '--tasks', join(dir, 'tasks.jsonl'), '--provider', join(dir, 'provider.json'), '--corpus', join(dir, 'corpus.jsonl'),
      '--plans-per-task', '2', '--concurrency', '2', '--db', db, '--seed', '3', '--json'];
    process.env.ORCHRM_TEST_KEY = 'test';
    try {
      const before = server.requests.length;
      const again = await runCommand(registerCollectCommand, args);
      expect(again.exitCode).toBeUndefined();
      expect(again.stderr).toMatch(/run \S+ in .*runs\.db already holds all 4 episodes of this collection .* Pass --new-run/);
      // The whole run's summary, read back from the store.
      expect(JSON.parse(again.stdout)).toMatchObject({ episodes: 4, skipped: 4, total: 4, correct: 2, continued: true, calls: { total: 52, cached: 0 } });
      const repeat = await runCommand(registerCollectCommand, [...args, '--new-run']);
      expect(server.requests.length).toBe(before);
      const summary = JSON.parse(repeat.stdout);
      expect(summary).toMatchObject({ episodes: 4, skipped: 0, correct: 2, continued: false, calls: { total: 52, cached: 52 } });
      const store = openStore(db, { readonly: true });
      expect(new Set(store.listEpisodes({}).map((episode) => episode.runId)).size).toBe(2);
      store.close();
    } finally {
      delete process.env.ORCHRM_TEST_KEY;
    }
  });
});
