import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseProviderConfig } from '../../llm/index.js';
import { openStore } from '../../store/index.js';
import { startChatServer, type ChatCompletionBody, type ChatServer } from '../../testing/index.js';
import { REPO_ROOT } from '../test-fixtures/built-package.js';
import { runCommand } from '../test-fixtures/run-command.js';
import { registerCollectCommand } from './collect.js';

/*
 * Issue 24 item 3: the orchestrator always sent max_tokens 4096 and temperature 1, and a thinking
 * model that spent its budget inside <think> gave "the output is empty; write a plan" with no
 * word about the limit. A provider config now sets generation per role, and a reply cut at its
 * limit says so, naming the field that raises it.
 */

const PLAN = JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'cot', input: 'Solve it.', params: {} }], edges: [], answer: 'A' });
/** The orchestrator thinks for 6,000 tokens before it writes the plan: any smaller limit cuts it off inside <think>. */
const THINKING_TOKENS = 6000;

let server: ChatServer;
let directory: string;
const path = (name: string) => join(directory, name);

beforeAll(async () => {
  server = await startChatServer({
    models: ['orch', 'work'],
    handler: (body: ChatCompletionBody) => {
      if (body.model !== 'orch') return { text: '<answer>5</answer>' };
      const limit = body.max_tokens ?? body.max_completion_tokens ?? Number.POSITIVE_INFINITY;
      if (limit < THINKING_TOKENS) return { text: '', reasoningContent: 'Let me think. '.repeat(100), finishReason: 'length' };
      return { text: PLAN };
    },
  });
  directory = mkdtempSync(join(tmpdir(), 'orchrm-generation-'));
  writeFileSync(path('tasks.jsonl'), '{"id": "q1", "question": "What is 2 + 3?", "answer": "5"}\n');
  const config = (generation: object) => JSON.stringify({ type: 'openai', baseURL: server.url, models: { orchestrator: 'orch', worker: 'work', judge: 'work' }, generation });
  writeFileSync(path('default.json'), config({}));
  writeFileSync(path('thinking.json'), config({ orchestrator: { maxTokens: 16384, temperature: 0.6, topP: 0.95, reasoningEffort: 'high' }, worker: { maxTokens: 2048, temperature: 0.2 } }));
});
afterAll(async () => {
  await server?.close();
  rmSync(directory, { recursive: true, force: true });
});

const collect = (config: string, db: string) => runCommand(registerCollectCommand, ['collect', '--tasks', path('tasks.jsonl'), '--provider', path(config), '--db', path(db)]);

it('says when the orchestrator ran out of tokens inside its reasoning, and which config field raises the limit', async () => {
  const outcome = await collect('default.json', 'cut.db');
  expect(outcome.stderr).toContain(
    'a reply to the orchestrator (model orch) was cut off: it ended at max_tokens 4096 inside its reasoning, with no answer written (finish_reason "length"); raise generation.orchestrator.maxTokens in the provider config',
  );
  const store = openStore(path('cut.db'), { readonly: true });
  try {
    const [episode] = store.listEpisodes();
    expect(episode?.status).toBe('parse_error');
    expect(episode?.reason).toContain("the output is empty; write a plan; the orchestrator's output was cut off: it ended at max_tokens 4096");
  } finally {
    store.close();
  }
});

it('sends each role the generation settings of the provider config', async () => {
  const before = server.requests.length;
  const outcome = await collect('thinking.json', 'settings.db');
  expect(outcome.exitCode).toBeUndefined();
  expect(outcome.stderr).not.toContain('cut off');
  const sent = server.requests.slice(before);
  const orchestrator = sent.find((body) => body.model === 'orch')!;
  expect(orchestrator).toMatchObject({ max_tokens: 16384, temperature: 0.6, top_p: 0.95, reasoning_effort: 'high' });
  const worker = sent.find((body) => body.model === 'work')!;
  expect(worker).toMatchObject({ max_tokens: 2048, temperature: 0.2 });
  expect(worker).not.toHaveProperty('top_p');
  const store = openStore(path('settings.db'), { readonly: true });
  try {
    expect(store.listEpisodes()[0]?.status).toBe('ok');
  } finally {
    store.close();
  }
});

it('docs/tasks.md shows a provider config with generation settings that parses as written', () => {
  const docs = readFileSync(join(REPO_ROOT, 'docs', 'tasks.md'), 'utf8');
  const example = [...docs.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]!).find((block) => block.includes('"generation"'));
  expect(parseProviderConfig(JSON.parse(example!)).generation.orchestrator?.maxTokens).toBe(16384);
});
