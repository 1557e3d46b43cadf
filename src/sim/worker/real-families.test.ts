import { describe, expect, it } from 'vitest';
import { normalizeAnswer } from '../../agents/normalize-answer.js';
import { answerPrompt, critiquePrompt, debateFinalPrompt, debateTurnPrompt, refinePrompt, searchStartPrompt } from '../../prompts/block-prompts.js';
import { createBlockRegistry } from '../../agents/registry.js';
import type { Plan } from '../../core/plan.js';
import { Rng } from '../../core/rng.js';
import type { Task } from '../../core/task.js';
import { executePlan } from '../../exec/execute-plan.js';
import { countMessageTokens } from '../../llm/token-counter.js';
import { createBm25Retriever } from '../../tasks/bm25-retriever.js';
import { createArithFamily } from '../families/arith/arith-family.js';
import type { Granularity, SimFamily } from '../families/family.js';
import { createMultihopFamily } from '../families/multihop/index.js';
import { ArithFamilySchema, MultihopFamilySchema, ScenarioSchema, type ScenarioInput } from '../scenario/scenario-schema.js';
import { countMessageTokensFast } from './count-tokens-fast.js';
import { createSimWorker } from './create-sim-worker.js';
import { readBlockPrompt } from '../../prompts/read-block-prompt.js';
import { readProblem } from './respond-to-prompt.js';

const arith = createArithFamily(ArithFamilySchema.parse({}));
const multihop = createMultihopFamily(MultihopFamilySchema.parse({ entities: 120 }), 5);
const families: SimFamily[] = [arith, multihop];
const arithTasks = arith.generate({ count: 24, rng: new Rng(1), idPrefix: 'a' });
const multihopTasks = multihop.generate({ count: 24, rng: new Rng(2), idPrefix: 'm' });
const famousTasks = createMultihopFamily(MultihopFamilySchema.parse({ entities: 120, famousShare: 1, rumours: 1 }), 5).generate({ count: 24, rng: new Rng(2), idPrefix: 'f' });
const retriever = createBm25Retriever(multihop.corpus());
const blocks = createBlockRegistry();

const workerWith = (worker: ScenarioInput['worker'] = {}) =>
  createSimWorker({ scenario: ScenarioSchema.parse({ name: 'real', seed: 5, families: {}, worker }), families });

const isCorrect = (task: Task, answer: string | undefined) => normalizeAnswer(answer ?? '') === normalizeAnswer(task.answer ?? '');

/** Accuracy of a one-node plan over tasks. */
async function accuracy(tasks: readonly Task[], agent: string, params: Record<string, unknown>, worker = workerWith()): Promise<number> {
  let correct = 0;
  for (const [index, task] of tasks.entries()) {
    const plan: Plan = { dom: 'low', nodes: [{ id: 'A', agent, input: '', params }], edges: [], answer: 'A' };
    const run = await executePlan({ task, plan, blocks, provider: worker, retriever, seed: index });
    if (isCorrect(task, run.finalAnswer)) correct++;
  }
  return correct / tasks.length;
}

/** The plan a decomposition gives: one cot node per sub-question, inputs referring to upstream answers. */
function decomposedPlan(family: SimFamily, task: Task, granularity: Granularity): Plan | undefined {
  const decomposition = family.decompose(task.question, granularity);
  if (decomposition === undefined) return undefined;
  const nodes = decomposition.subQuestions.map((sub) => ({
    id: sub.id,
    agent: 'cot',
    input: sub.render(Object.fromEntries(sub.dependsOn.map((id) => [id, `\${${id}}`]))),
    params: {},
  }));
  const edges = decomposition.subQuestions.flatMap((sub) => sub.dependsOn.map((from) => ({ from, to: sub.id })));
  return { dom: 'high', nodes, edges, answer: decomposition.finalId };
}

describe('sim worker with the real families', () => {
  it('has every step kind of a real task read by its family', () => {
    for (const task of [...arithTasks.slice(0, 6), ...multihopTasks.slice(0, 6)]) {
      const subject = { task, input: task.question };
      const turn = { role: 'A', answer: '1', output: '<answer>1</answer>' };
      const prompts = [
        answerPrompt(subject),
        critiquePrompt(subject, '<answer>1</answer>'),
        refinePrompt(subject, '<answer>1</answer>', '<verdict>incorrect</verdict>'),
        debateTurnPrompt(subject, { role: 'B', round: 1, rounds: 2, own: turn, others: [turn] }),
        debateFinalPrompt(subject, { rounds: [[turn, turn]] }),
        searchStartPrompt(subject, 3),
      ];
      for (const messages of prompts) {
        const problem = readProblem(readBlockPrompt(messages).view, families);
        expect(problem?.family).toBe(task.suite);
        expect(normalizeAnswer(problem?.correctAnswer ?? '')).toBe(normalizeAnswer(task.answer ?? ''));
      }
    }
  });

  it('a flawless worker answers every task, directly and through decompositions', async () => {
    const flawless = workerWith({ tiers: { 'sim-worker': { skill: 60 } } });
    expect(await accuracy(arithTasks, 'cot', {}, flawless)).toBe(1);
    expect(await accuracy(multihopTasks, 'cot', {}, flawless)).toBe(1);
    for (const [index, task] of [...arithTasks.slice(0, 8), ...multihopTasks.slice(0, 8)].entries()) {
      const family = task.suite === 'arith' ? arith : multihop;
      const plan = decomposedPlan(family, task, 'steps');
      if (plan === undefined) throw new Error(`no decomposition of ${task.question}`);
      const run = await executePlan({ task, plan, blocks, provider: flawless, seed: index });
      expect(run.status).toBe('ok');
      expect(isCorrect(task, run.finalAnswer)).toBe(true);
    }
  });

  it('search beats recall on multihop questions at the default skill, except about famous entities (issue 21)', async () => {
    const structureOf = (task: (typeof multihopTasks)[number]) => (task.metadata.axes as { structure?: string }).structure;
    const chains = multihopTasks.filter((task) => structureOf(task) === 'chain');
    const famous = famousTasks.filter((task) => structureOf(task) === 'famous');
    expect(chains.length).toBeGreaterThan(8);
    expect(famous.length).toBeGreaterThan(8);
    expect(await accuracy(chains, 'search', {})).toBeGreaterThan((await accuracy(chains, 'cot', {})) + 0.2);
    // Famous facts are recalled; searching for them retrieves rumours that mislead.
    expect(await accuracy(famous, 'cot', {})).toBeGreaterThan((await accuracy(famous, 'search', {})) + 0.1);
  });

  it('is reproducible on real tasks', async () => {
    const first = await accuracy(arithTasks, 'sc', { samples: 3 });
    expect(await accuracy(arithTasks, 'sc', { samples: 3 })).toBe(first);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(1);
  });

  // Measured over 100 tasks each (answer, critique and search prompts), fast/o200k: arith 1.05
  // (every prompt 1.01-1.08), multihop 0.96 (0.94-1.06).
  it('counts prompt tokens within 15% of o200k on real family prompts', () => {
    let exact = 0;
    let fast = 0;
    for (const task of [...arithTasks, ...multihopTasks]) {
      const messages = critiquePrompt({ task, input: task.question }, `Working it out.\n<answer>${task.answer ?? ''}</answer>`);
      const exactTokens = countMessageTokens(messages);
      const fastTokens = countMessageTokensFast(messages);
      expect(Math.abs(fastTokens / exactTokens - 1)).toBeLessThan(0.15);
      exact += exactTokens;
      fast += fastTokens;
    }
    expect(Math.abs(fast / exact - 1)).toBeLessThan(0.08);
  });
});
