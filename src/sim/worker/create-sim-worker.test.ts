import { describe, expect, it } from 'vitest';
import { createBlockRegistry } from '../../agents/registry.js';
import { extractAnswer } from '../../prompts/extract-answer.js';
import { flagsMisleadingStatement, MISLEADING_STATEMENT_FLAG } from '../../prompts/block-replies.js';
import {
  answerPrompt,
  critiquePrompt,
  debateFinalPrompt,
  debateTurnPrompt,
  refinePrompt,
  searchFeedbackMessage,
  searchStartPrompt,
  type DebateTurnView,
} from '../../prompts/block-prompts.js';
import { UserError } from '../../core/errors.js';
import type { ChatMessage } from '../../core/llm-call.js';
import type { Plan } from '../../core/plan.js';
import { TaskSchema, type Task } from '../../core/task.js';
import { executePlan } from '../../exec/execute-plan.js';
import type { ChatRequest } from '../../llm/chat-provider.js';
import { createBm25Retriever } from '../../tasks/bm25-retriever.js';
import { ScenarioSchema, TokensSchema, type ScenarioInput } from '../scenario/scenario-schema.js';
import { countMessageTokensFast, countTokensFast } from './count-tokens-fast.js';
import { createSimWorker } from './create-sim-worker.js';
import { chainQuestion, codeOf, fakeFamily, lookupQuestion } from './test-fixtures/fake-family.js';

/** The default hidden reasoning tokens billed per step. */
const REASONING_TOKENS_PER_STEP = TokensSchema.parse({}).reasoningTokensPerStep;

function workerWith(worker: ScenarioInput['worker'] = {}) {
  return createSimWorker({ scenario: ScenarioSchema.parse({ name: 'test', seed: 3, families: {}, worker }), families: [fakeFamily] });
}

const taskOf = (question: string): Task => TaskSchema.parse({ id: 'task', question });
const chainTask = taskOf(chainQuestion({ id: 'c1', start: 5, adds: [3, 4, 2] }));
const request = (messages: ChatMessage[], seed: number, extra: Partial<ChatRequest> = {}): ChatRequest => ({ messages, slot: 'worker', seed, ...extra });

/** Share of `seeds` calls whose reply satisfies `test`. */
async function rate(worker: ReturnType<typeof workerWith>, messages: ChatMessage[], test: (text: string) => boolean, seeds = 2_000, extra: Partial<ChatRequest> = {}) {
  let hits = 0;
  for (let seed = 0; seed < seeds; seed++) if (test((await worker.chat(request(messages, seed, extra))).text)) hits++;
  return hits / seeds;
}

const answerIs = (expected: string) => (text: string) => extractAnswer(text).answer === expected;

describe('createSimWorker', () => {
  it('answers like a model: short reasoning, an answer tag, provider usage', async () => {
    const worker = workerWith();
    const response = await worker.chat(request(answerPrompt({ task: chainTask, input: chainTask.question }), 1));
    expect(worker.name).toBe('sim-worker');
    expect(response.text).toMatch(/^Adding 3 gives \d+\.\nAdding 4 gives \d+\.\nAdding 2 gives \d+\.\n<answer>\d+<\/answer>$/);
    expect(response).toMatchObject({ usageSource: 'provider', latencyMs: 0, attempts: 1, cached: false, model: 'sim-worker' });
  });

  it('is a pure function of the request, and different seeds give different draws', async () => {
    const messages = answerPrompt({ task: chainTask, input: chainTask.question });
    const first = await workerWith().chat(request(messages, 42, { temperature: 1 }));
    expect(await workerWith().chat(request(messages, 42, { temperature: 1 }))).toEqual(first);
    // sampleIndex is never read: over HTTP it does not exist.
    expect(await workerWith().chat(request(messages, 42, { temperature: 1, sampleIndex: 3 }))).toEqual(first);
    const answers = new Set<string>();
    for (let seed = 0; seed < 40; seed++) answers.add((await workerWith({ tiers: { 'sim-worker': { skill: 1 } } }).chat(request(messages, seed))).text);
    expect(answers.size).toBeGreaterThan(2);
  });

  it('uses the default temperature 0.7 and the default tier for unknown models', async () => {
    const worker = workerWith();
    const messages = answerPrompt({ task: chainTask, input: chainTask.question });
    for (let seed = 0; seed < 30; seed++) {
      const implicit = await worker.chat(request(messages, seed));
      expect(await worker.chat(request(messages, seed, { temperature: 0.7 }))).toEqual(implicit);
      expect(await worker.chat(request(messages, seed, { model: 'gpt-unknown' }))).toEqual(implicit);
    }
    expect((await worker.chat(request(messages, 1, { model: 'sim-worker-small' }))).model).toBe('sim-worker-small');
  });

  it('is more accurate at a higher tier and with a refine call', async () => {
    const worker = workerWith();
    const task = taskOf(chainQuestion({ id: 'c2', start: 1, adds: [2, 3, 4, 5, 6] }));
    const messages = answerPrompt({ task, input: task.question });
    const small = await rate(worker, messages, answerIs('21'), 1_000, { model: 'sim-worker-small' });
    const large = await rate(worker, messages, answerIs('21'), 1_000, { model: 'sim-worker-large' });
    expect(large).toBeGreaterThan(small + 0.2);
    const refine = refinePrompt({ task, input: task.question }, '<answer>20</answer>', 'Wrong.\n<verdict>incorrect</verdict>');
    const refined = await rate(workerWith({ refineBonus: 2 }), refine, answerIs('21'), 1_000, { model: 'sim-worker-small' });
    expect(refined).toBeGreaterThan(small + 0.15);
  });

  it('critic checks a wrong answer against a misleading statement at the noteDetect rate and names it (issue 21)', async () => {
    // start 5, adds 3, 4, 2: right 14. The rumour misleads the last step; the plain chain has no such statement.
    const rumoured = taskOf(chainQuestion({ id: 'r1', start: 5, adds: [3, 4, 2], rumour: true }));
    const worker = workerWith({ critic: { detect: 0.2, falseAlarm: 0.1, noteDetect: 0.9 } });
    const says = (text: string) => text.endsWith('<verdict>incorrect</verdict>');
    const names = (text: string) => flagsMisleadingStatement(text);
    const misled = critiquePrompt({ task: rumoured, input: rumoured.question }, '<answer>15</answer>');
    const caught = await rate(worker, misled, says);
    expect(caught).toBeGreaterThan(0.86);
    expect(caught).toBeLessThan(0.94);
    expect(await rate(worker, misled, names)).toBeCloseTo(caught, 5);
    expect(await rate(worker, critiquePrompt({ task: rumoured, input: rumoured.question }, '<answer>14</answer>'), names, 300)).toBe(0);
    const slip = critiquePrompt({ task: chainTask, input: chainTask.question }, '<answer>17</answer>');
    const slipCaught = await rate(worker, slip, says);
    expect(slipCaught).toBeGreaterThan(0.16);
    expect(slipCaught).toBeLessThan(0.24);
    expect(await rate(worker, slip, names)).toBe(0);
    // With noteDetect 0 the critic never names a statement.
    expect(await rate(workerWith({ critic: { detect: 0.2, falseAlarm: 0.1, noteDetect: 0 } }), misled, names, 300)).toBe(0);
  });

  it('a refine told that a statement misleads discounts it; one told only that the answer is wrong does not (issue 21)', async () => {
    const rumoured = taskOf(chainQuestion({ id: 'r2', start: 5, adds: [3, 4, 2], rumour: true }));
    const worker = workerWith({ misleadPenalty: 6 });
    const subject = { task: rumoured, input: rumoured.question };
    const flagged = refinePrompt(subject, '<answer>15</answer>', `Wrong. ${MISLEADING_STATEMENT_FLAG}\n<verdict>incorrect</verdict>`);
    const plain = refinePrompt(subject, '<answer>15</answer>', 'Wrong.\n<verdict>incorrect</verdict>');
    const discounted = await rate(worker, flagged, answerIs('14'), 1_000);
    const believed = await rate(worker, plain, answerIs('14'), 1_000);
    expect(believed).toBeLessThan(0.1);
    expect(discounted).toBeGreaterThan(believed + 0.5);
  });

  it('critic says incorrect at the detect rate on wrong answers and the false-alarm rate on right ones', async () => {
    const worker = workerWith({ critic: { detect: 0.7, falseAlarm: 0.15 } });
    const says = (text: string) => text.endsWith('<verdict>incorrect</verdict>');
    const wrong = await rate(worker, critiquePrompt({ task: chainTask, input: chainTask.question }, 'So 15.\n<answer>15</answer>'), says);
    const right = await rate(worker, critiquePrompt({ task: chainTask, input: chainTask.question }, 'So 14.\n<answer> 14.0 </answer>'), says);
    expect(wrong).toBeGreaterThan(0.66);
    expect(wrong).toBeLessThan(0.74);
    expect(right).toBeGreaterThan(0.12);
    expect(right).toBeLessThan(0.18);
    const text = (await worker.chat(request(critiquePrompt({ task: chainTask, input: chainTask.question }, '<answer>15</answer>'), 1))).text;
    expect(text).toMatch(/^.+\n<verdict>(in)?correct<\/verdict>$/);
  });

  it('debate turns adopt the plurality of the others at the persuasion rate, from round 2 on', async () => {
    const turn = (role: string, answer: string): DebateTurnView => ({ role, answer, output: `<answer>${answer}</answer>` });
    const subject = { task: chainTask, input: chainTask.question };
    const later = debateTurnPrompt(subject, { role: 'A', round: 1, rounds: 3, own: turn('A', '14'), others: [turn('B', '99'), turn('C', '99'), turn('D', '14')] });
    const adopts = (text: string) => extractAnswer(text).answer === '99';
    const strong = { tiers: { 'sim-worker': { skill: 12 } } };
    expect(await rate(workerWith({ ...strong, persuasion: 0.3 }), later, adopts)).toBeCloseTo(0.3, 1);
    expect(await rate(workerWith({ ...strong, persuasion: 0 }), later, adopts, 200)).toBe(0);
    expect(await rate(workerWith({ ...strong, persuasion: 1 }), later, adopts, 200)).toBe(1);
    // Round 1 has no one to be persuaded by; the plurality that agrees changes nothing.
    const first = debateTurnPrompt(subject, { role: 'A', round: 0, rounds: 3, others: [] });
    expect(await rate(workerWith({ ...strong, persuasion: 1 }), first, answerIs('14'), 200)).toBe(1);
    const agreeing = debateTurnPrompt(subject, { role: 'A', round: 1, rounds: 3, others: [turn('B', '14'), turn('C', '14.0')] });
    expect(await rate(workerWith({ ...strong, persuasion: 1 }), agreeing, answerIs('14'), 200)).toBe(1);
  });

  it('debate-final decides by the plurality of the last round, ties to the first', async () => {
    const worker = workerWith();
    const turn = (role: string, answer: string): DebateTurnView => ({ role, answer, output: `<answer>${answer}</answer>` });
    const subject = { task: chainTask, input: chainTask.question };
    const rounds = [[turn('A', '1'), turn('B', '1'), turn('C', '1')], [turn('A', '7'), turn('B', '8'), turn('C', '8')]];
    const decided = await worker.chat(request(debateFinalPrompt(subject, { rounds }), 5));
    expect(decided.text).toBe('Final round answers: 7 (1), 8 (2).\nThe agents mostly settled on 8.\n<answer>8</answer>');
    expect(decided.usage.completionTokens).toBe(countTokensFast(decided.text) + REASONING_TOKENS_PER_STEP);
    const tie = await worker.chat(request(debateFinalPrompt(subject, { rounds: [[turn('A', '9'), turn('B', '8')]] }), 5));
    expect(extractAnswer(tie.text).answer).toBe('9');
  });

  it('searches for a missing fact while searches are left, then answers from the results', async () => {
    const worker = workerWith({ tiers: { 'sim-worker': { skill: 8 } } });
    const task = taskOf(lookupQuestion('l1', 'Ada'));
    const start = searchStartPrompt({ task, input: task.question }, 2);
    const first = await worker.chat(request(start, 1));
    expect(first.text).toBe('I still need a fact that the context does not give.\n<search>code of Ada</search>');
    const unhelpful = [...start, { role: 'assistant' as const, content: first.text }, searchFeedbackMessage({ query: 'code of Ada', documents: [], iterationsLeft: 1 })];
    expect((await worker.chat(request(unhelpful, 2))).text).toContain('<search>code of Ada</search>');
    const found = [
      ...start,
      { role: 'assistant' as const, content: first.text },
      searchFeedbackMessage({ query: 'code of Ada', documents: [{ id: 'doc-Ada', title: 'Ada', text: `The code of Ada is ${codeOf('Ada')}.`, score: 1 }], iterationsLeft: 1 }),
    ];
    expect(extractAnswer((await worker.chat(request(found, 2))).text).answer).toBe(String(codeOf('Ada')));
    // No searches left: it answers (from recall) instead of searching.
    const final = [...unhelpful.slice(0, -1), searchFeedbackMessage({ query: 'code of Ada', documents: [], iterationsLeft: 0 })];
    expect((await worker.chat(request(final, 3))).text).toMatch(/<answer>\d+<\/answer>$/);
    const noneLeft = [...unhelpful.slice(0, -1), { role: 'user' as const, content: `Step: search\n\nSub-task:\n${task.question}\n\nIterations left: 0` }];
    expect((await worker.chat(request(noneLeft, 3))).text).not.toContain('<search>');
  });

  it('reports usage from the texts plus hidden reasoning tokens per step', async () => {
    const worker = workerWith();
    const messages = answerPrompt({ task: chainTask, input: chainTask.question });
    const response = await worker.chat(request(messages, 9));
    const promptTokens = countMessageTokensFast(messages);
    const completionTokens = countTokensFast(response.text) + 3 * REASONING_TOKENS_PER_STEP;
    expect(response.usage).toEqual({ promptTokens, completionTokens, totalTokens: promptTokens + completionTokens });
    const cheap = createSimWorker({ scenario: ScenarioSchema.parse({ name: 't', families: {}, tokens: { reasoningTokensPerStep: 0 } }), families: [fakeFamily] });
    expect((await cheap.chat(request(messages, 9))).usage.completionTokens).toBe(countTokensFast(response.text));
  });

  it('answers unrecognised prompts with a low-confidence guess', async () => {
    const worker = workerWith();
    const plain = await worker.chat(request([{ role: 'user', content: 'What is 6 times 7?' }], 1));
    expect(plain.text).toMatch(/^I cannot tell exactly.*\n.*\n<answer>-?\d+<\/answer>$/);
    expect(Number(extractAnswer(plain.text).answer)).toBeGreaterThanOrEqual(3);
    expect(Number(extractAnswer(plain.text).answer)).toBeLessThanOrEqual(10);
    const other = taskOf('Who painted the ceiling of the Sistine Chapel?');
    const named = await worker.chat(request(answerPrompt({ task: other, input: other.question }), 1));
    expect(named.text).toMatch(/<answer>(Sistine Chapel)<\/answer>$/);
    const empty = await worker.chat(request([], 1));
    expect(empty.text).toMatch(/<answer>unknown<\/answer>$/);
    expect(empty.usage.completionTokens).toBe(countTokensFast(empty.text) + REASONING_TOKENS_PER_STEP);
    const critique = await worker.chat(request(critiquePrompt({ task: other, input: other.question }, '<answer>x</answer>'), 1));
    expect(critique.text).toMatch(/<verdict>(in)?correct<\/verdict>$/);
  });

  it('rejects a scenario whose default model has no tier, and honours an aborted signal', async () => {
    expect(() => workerWith({ defaultModel: 'missing' })).toThrow(UserError);
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await expect(workerWith().chat(request([], 1, { signal: controller.signal }))).rejects.toThrow('stopped');
  });

  it('runs every built-in block through the real executor, reproducibly', async () => {
    const task = taskOf(chainQuestion({ id: 'c9', start: 2, adds: [5, 6, 7] }));
    const lookup = lookupQuestion('l9', 'Cid');
    const plan: Plan = {
      dom: 'high',
      nodes: [
        { id: 'S', agent: 'search', input: lookup, params: { maxIterations: 2 } },
        { id: 'A', agent: 'sc', input: '', params: { samples: 3 } },
        { id: 'R', agent: 'reflexion', input: '', params: { maxRounds: 2 } },
        { id: 'D', agent: 'debate', input: 'Check ${A} ${R} ${S}', params: { roles: ['X', 'Y'], rounds: 2 } },
      ],
      edges: [
        { from: 'A', to: 'D' },
        { from: 'R', to: 'D' },
        { from: 'S', to: 'D' },
      ],
      answer: 'D',
    };
    const run = () =>
      executePlan({ task, plan, blocks: createBlockRegistry(), provider: workerWith(), retriever: createBm25Retriever(fakeFamily.corpus()), seed: 17 });
    const first = await run();
    expect(first.status).toBe('ok');
    expect(first.nodes.map((node) => node.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(first.nodes[0]?.calls[0]?.response).toContain('<search>code of Cid</search>');
    expect(first.finalAnswer).toMatch(/^\d+$/);
    expect(JSON.stringify((await run()).nodes.map((node) => node.calls.map((call) => call.response)))).toBe(
      JSON.stringify(first.nodes.map((node) => node.calls.map((call) => call.response))),
    );
  });
});
