import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../../store/index.js';
import { startChatServer, type ChatServer } from '../../testing/index.js';
import { runCommand } from '../test-fixtures/run-command.js';
import { registerCollectCommand } from './collect.js';

/*
 * Issue 24 item 2: `--count` with `--tasks` was silently ignored and the whole file collected;
 * nothing said what a run would spend. Now --count there is refused, --limit takes the first
 * tasks of a file, and the command prints what it will spend before it starts.
 */

const PLAN = JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'sc', input: 'Solve it.', params: { samples: 3 } }], edges: [], answer: 'A' });

let server: ChatServer;
let directory: string;
const path = (name: string) => join(directory, name);

beforeAll(async () => {
  server = await startChatServer({ models: ['m'], handler: (body) => (String(body.messages.at(-1)?.content).trimEnd().endsWith('Write the plan.') ? { text: PLAN } : { text: '<answer>5</answer>' }) });
  directory = mkdtempSync(join(tmpdir(), 'orchrm-collect-limit-'));
  writeFileSync(path('tasks.jsonl'), Array.from({ length: 10 }, (_, index) => JSON.stringify({ id: `q${index}`, question: `What is ${index} + 5?`, answer: String(index + 5) })).join('\n'));
  writeFileSync(path('provider.json'), JSON.stringify({ type: 'openai', baseURL: server.url, models: { orchestrator: 'm', worker: 'm', judge: 'm' }, concurrency: 2 }));
});
afterAll(async () => {
  await server?.close();
  rmSync(directory, { recursive: true, force: true });
});

const collect = (...args: string[]) => runCommand(registerCollectCommand, ['collect', '--tasks', path('tasks.jsonl'), '--provider', path('provider.json'), ...args]);

it('refuses --count with --tasks, saying to use --limit, before asking the server anything', async () => {
  const before = server.requests.length;
  const outcome = await collect('--count', '3', '--db', path('refused.db'));
  expect(outcome.exitCode).toBe(2);
  expect(outcome.stderr).toContain('--count sets how many tasks a --scenario generates; with --tasks it would do nothing. For the first 3 tasks of');
  expect(outcome.stderr).toContain('pass --limit 3');
  expect(server.requests.length).toBe(before);
});

it('refuses --limit with --scenario, and a field flag a named suite would ignore', async () => {
  const limit = await runCommand(registerCollectCommand, ['collect', '--scenario', 'default', '--limit', '5', '--db', path('refused.db')]);
  expect(limit.exitCode).toBe(2);
  expect(limit.stderr).toContain('--limit takes the first tasks of a --tasks file; for 5 tasks of a scenario, pass --count 5');
  const field = await collect('--suite', 'gsm8k', '--question-field', 'q', '--db', path('refused.db'));
  expect(field.exitCode).toBe(2);
  expect(field.stderr).toContain('--question-field names a field of a generic JSONL file; --suite gsm8k reads its own fields');
});

it('--limit collects the first tasks of the file, after saying what the run will spend', async () => {
  const first = await collect('--limit', '3', '--plans-per-task', '2', '--db', path('runs.db'));
  expect(first.exitCode).toBeUndefined();
  expect(first.stderr).toContain('collect: 3 tasks x 2 plans = 6 episodes: 6 orchestrator calls, then the sub-agent calls of each plan');
  expect(first.stderr).toContain('per episode: not known before the plans are written');
  expect(first.stderr).toContain(`on ${server.url}: a real server, which may bill these tokens`);
  const store = openStore(path('runs.db'), { readonly: true });
  try {
    expect(store.listEpisodes({ limit: 100 }).map((episode) => episode.taskId).sort()).toEqual(['q0', 'q0', 'q1', 'q1', 'q2', 'q2']);
  } finally {
    store.close();
  }
  // The next run is estimated from these episodes: 1 orchestrator call and 3 sc samples each.
  const next = await collect('--limit', '5', '--plans-per-task', '2', '--db', path('runs.db'), '--seed', '1');
  expect(next.stderr).toContain('collect: 5 tasks x 2 plans = 10 episodes');
  expect(next.stderr).toMatch(/about 40 calls and \S+ tokens, at the mean of the first 6 episodes already in \S+runs\.db \(4\.0 calls, /);
});
