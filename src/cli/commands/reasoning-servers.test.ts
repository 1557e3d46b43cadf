import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ignoreEvents } from '../../core/index.js';
import { createChatProvider, parseProviderConfig } from '../../llm/index.js';
import { openStore } from '../../store/index.js';
import { createLlmJudgeGrader } from '../../tasks/index.js';
import { openAiReasoningModel, startChatServer, type ChatCompletionBody, type ChatServer, type ChatServerHandler, type TextReply } from '../../testing/index.js';
import { runCommand } from '../test-fixtures/run-command.js';
import { registerBonCommand } from './bon.js';
import { registerCollectCommand } from './collect.js';

/*
 * The two kinds of server the issue names, driven through collect, bon (with both judges) and
 * the LLM-judge grader: one that refuses parameters as OpenAI's reasoning models do, and one that
 * returns reasoning beside or inside its answers. No episode may fail and no judge may be unread.
 */

const plan = (input: string) => JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'cot', input, params: {} }], edges: [], answer: 'A' });
const CAREFUL = 'Solve it carefully, step by step.';
const GUESS = 'Guess the answer quickly.';
/** A complete plan inside the reasoning, different from the one answered: reading it would change the graph. */
const DRAFT = JSON.stringify({ dom: 'high', nodes: [{ id: 'D', agent: 'debate', input: 'draft', params: { roles: ['a', 'b'] } }], edges: [], answer: 'D' });

const text = (body: ChatCompletionBody) => body.messages.map((message) => String(message.content)).join('\n');

/** Plays the three roles; `style` says how reasoning comes back. Per question, the first plan guesses, the second is careful. */
function roles(style: 'none' | 'reasoning-field' | 'think-tags'): ChatServerHandler {
  const plansWritten = new Map<string, number>();
  const withReasoning = (answer: string, reasoning: string): TextReply =>
    style === 'none' ? { text: answer } : style === 'think-tags' ? { text: `<think>\n${reasoning}\n</think>\n\n${answer}` } : { text: answer, reasoningContent: reasoning };
  return (body) => {
    const prompt = text(body);
    if (prompt.includes('Judge: ')) {
      // Candidate blocks start at "Candidate k:"; the careful plan is the right one.
      const blocks = prompt.split(/\n(?=Candidate \d+:)/).filter((block) => /^Candidate \d+:/.test(block));
      const careful = blocks.find((block) => block.includes('carefully'));
      const choice = /^Candidate (\d+):/.exec(careful ?? '')?.[1] ?? '1';
      return withReasoning(`The careful plan is better.\n<choice>${choice}</choice>`, 'Candidate 1 guesses. <choice>1</choice> would be wrong.');
    }
    if (prompt.includes('correct_answer') || /\bcorrect: (yes|no)\b/i.test(prompt) || prompt.includes('[correct_answer]')) {
      return withReasoning('extracted_final_answer: 5\ncorrect: yes', 'correct: no would be wrong here');
    }
    if (body.model === 'planner') {
      const question = /What is 2 \+ \d\?/.exec(prompt)?.[0] ?? prompt;
      const count = plansWritten.get(question) ?? 0;
      plansWritten.set(question, count + 1);
      return withReasoning(plan(count % 2 === 0 ? GUESS : CAREFUL), `A first draft: ${DRAFT}`);
    }
    const right = /What is 2 \+ (\d)\?/.exec(prompt);
    const answer = right ? String(2 + Number(right[1])) : '0';
    return withReasoning(prompt.includes('carefully') ? `Two plus the number.\n<answer>${answer}</answer>` : 'A guess.\n<answer>99</answer>', `<answer>98</answer> is tempting`);
  };
}

describe.each([
  { name: 'an OpenAI reasoning model (refuses max_tokens, temperature 0, stop)', handler: openAiReasoningModel(roles('none')), reasoning: false },
  { name: 'a server returning reasoning_content (DeepSeek, vLLM)', handler: roles('reasoning-field'), reasoning: true },
  { name: 'a server returning <think> in the content (Qwen3, R1 without a reasoning parser)', handler: roles('think-tags'), reasoning: true },
])('collect, bon and the judges against $name', ({ handler, reasoning }) => {
  let server: ChatServer;
  let directory: string;
  let provider: string;
  let warnings: string;

  beforeAll(async () => {
    server = await startChatServer({ handler, models: ['planner', 'gpt-5-mini', 'o4-mini'] });
    directory = mkdtempSync(join(tmpdir(), 'orchrm-reasoning-'));
    writeFileSync(join(directory, 'tasks.jsonl'), [3, 4, 5].map((n) => JSON.stringify({ id: `q${n}`, question: `What is 2 + ${n}?`, answer: String(2 + n) })).join('\n'));
    provider = join(directory, 'provider.json');
    writeFileSync(provider, JSON.stringify({ type: 'openai', baseURL: server.url, apiKeyEnv: 'NO_KEY_NEEDED', models: { orchestrator: 'planner', worker: 'gpt-5-mini', judge: 'o4-mini' }, concurrency: 4 }));
  });
  afterAll(async () => {
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('collect: every episode ok, the plan read is the answered one, reasoning kept', async () => {
    const db = join(directory, 'collect.db');
    const { exitCode, stdout, stderr } = await runCommand(registerCollectCommand, ['collect', '--tasks', join(directory, 'tasks.jsonl'), '--provider', provider, '--plans-per-task', '2', '--db', db, '--json']);
    warnings = stderr;
    expect(exitCode).toBeUndefined();
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ episodes: 6, byStatus: { ok: 6 }, graded: 6, correct: 3, failures: [] });
    const store = openStore(db, { readonly: true });
    try {
      const episodes = [...store.iterateEpisodes({})];
      for (const episode of episodes) {
        expect(episode.plan?.nodes.map((node) => node.agent)).toEqual(['cot']);
        const careful = episode.plan?.nodes[0]?.input === CAREFUL;
        expect(episode.finalAnswer).toBe(careful ? episode.task.answer : '99');
        const calls = [episode.orchestratorCall!, ...episode.nodes.flatMap((node) => node.calls)];
        for (const call of calls) {
          expect(call.error).toBeUndefined();
          if (reasoning) expect(call.reasoning).toMatch(/draft|tempting/);
          else expect(call.reasoning).toBeUndefined();
          expect(call.response).not.toContain('<think>');
        }
      }
    } finally {
      store.close();
    }
  });

  it('bon: the judges read every reply and pick the careful plan', async () => {
    const db = join(directory, 'bon.db');
    const { exitCode, stdout } = await runCommand(registerBonCommand, ['bon', '--tasks', join(directory, 'tasks.jsonl'), '--suite', 'jsonl', '--provider', provider, '--n', '2', '--strategies', 'single,judge,plan-judge,oracle', '--db', db, '--json']);
    expect(exitCode).toBeUndefined();
    const table = JSON.parse(stdout) as { tasks: number; strategies: Record<string, { accuracy: number; judgeFailures?: number }> };
    expect(table.tasks).toBe(3);
    for (const name of ['judge', 'plan-judge', 'oracle']) expect(table.strategies[name]).toMatchObject({ accuracy: 1 });
    expect(table.strategies.judge?.judgeFailures).toBeUndefined();
    expect(table.strategies['plan-judge']?.judgeFailures).toBeUndefined();
  });

  it('the LLM-judge grader reads its verdict', async () => {
    const chat = createChatProvider(parseProviderConfig({ type: 'openai', baseURL: server.url, models: { orchestrator: 'planner', worker: 'gpt-5-mini', judge: 'o4-mini' } }), { env: {}, events: ignoreEvents });
    const grade = await createLlmJudgeGrader({ provider: chat })({ id: 'q', suite: 'jsonl', question: 'What is 2 + 3?', answer: '5', metadata: {} }, 'five');
    expect(grade).toMatchObject({ correct: true, extractedAnswer: '5' });
    chat.close();
  });

  it.runIf(!reasoning)('says once per model what it stopped sending, and then sends what the model accepts', () => {
    // The planner is asked for 4096 tokens at temperature 1 (accepted); workers at temperature 0.5.
    expect(warnings.match(/orchrm: model planner refused "max_tokens" .* sending "max_completion_tokens" to it from now on/g)).toHaveLength(1);
    expect(warnings.match(/orchrm: model gpt-5-mini refused "temperature" .*does not support 0\.5 with this model.* leaving it out of its requests/g)).toHaveLength(1);
    expect(warnings).not.toMatch(/model planner refused "temperature"/);
    const last = server.requests.at(-1)!;
    expect(last).not.toHaveProperty('max_tokens');
    expect(last).not.toHaveProperty('temperature');
  });
});
