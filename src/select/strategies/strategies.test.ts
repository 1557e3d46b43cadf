import { describe, expect, it } from 'vitest';
import { createBlockRegistry } from '../../agents/index.js';
import { EPISODE_SCHEMA_VERSION, type Episode } from '../../core/episode.js';
import { ModelBehaviorError } from '../../core/errors.js';
import type { PlanEstimate, RewardModel } from '../../core/reward-model.js';
import type { Task } from '../../core/task.js';
import type { Usage } from '../../core/usage.js';
import { countTokens } from '../../llm/index.js';
import { createScriptedProvider } from '../../testing/index.js';
import { CandidatePool } from '../candidate-pool.js';
import { PLAN_JUDGE_HEADER, TRAJECTORY_JUDGE_HEADER } from '../../prompts/judge-prompts.js';
import type { StrategyName } from '../selection-strategy.js';
import type { SelectionObjective } from '../selection-objective.js';
import { STRATEGIES } from './index.js';

const task: Task = { id: 't1', suite: 'arith', question: 'What is 6 times 7?', answer: '42', metadata: {} };
const catalog = createBlockRegistry();
const VALID = (agent: string) => JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent, input: '', params: {} }], edges: [], answer: 'A' });
const INVALID = 'I would just think hard about it.';

const usage = (totalTokens: number): Usage => ({ promptTokens: totalTokens, completionTokens: 0, totalTokens });

/** A finished episode with a given answer, grade and execution cost; no answer for invalid plans. */
function episode(index: number, answer: string | undefined, executionTokens: number): Episode {
  return {
    schemaVersion: EPISODE_SCHEMA_VERSION,
    id: `ep${index}`,
    task,
    orchestrator: { name: 'test' },
    sampleIndex: index,
    planText: '',
    planFormat: 'json',
    diagnostics: [],
    warnings: [],
    nodes: [],
    ...(answer !== undefined && { finalAnswer: answer }),
    grade: { correct: answer === '42', method: 'normalized_exact_match' },
    usage: { orchestrator: usage(0), execution: usage(executionTokens), verification: usage(0) },
    wallTimeMs: 0,
    status: answer === undefined ? 'invalid_plan' : 'ok',
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

interface Fixture {
  /** Per candidate: plan text, answer (undefined = invalid, never answers), execution tokens, reward score. */
  candidates: { plan: string; answer: string | undefined; tokens: number; score: number }[];
  judgeReplies?: string[];
  topK?: number;
  adaptiveMargin?: number;
}

function pool(fixture: Fixture) {
  const executed: number[] = [];
  const scoreCalls: number[] = [];
  const rewardModel: RewardModel = {
    name: 'fake',
    async score(question, plans) {
      expect(question).toBe(task.question);
      scoreCalls.push(plans.length);
      return fixture.candidates.map((candidate) => candidate.score);
    },
  };
  const judge = createScriptedProvider(fixture.judgeReplies ?? []);
  const candidatePool = new CandidatePool({
    task,
    planTexts: fixture.candidates.map((candidate) => candidate.plan),
    orchestratorUsage: fixture.candidates.map((_, index) => usage(100 + index)),
    executePlan: async (index) => {
      executed.push(index);
      const candidate = fixture.candidates[index]!;
      return episode(index, candidate.answer, candidate.tokens);
    },
    rewardModel,
    judge,
    catalog,
    seed: 5,
    topK: fixture.topK ?? 3,
    adaptiveMargin: fixture.adaptiveMargin ?? 1,
    // Characters as tokens, so verification counts are exact in the test.
    countTokens: (text) => text.length,
  });
  const run = async (name: StrategyName, n: number) => {
    const selection = await STRATEGIES[name].select(candidatePool.contextFor(n));
    return { selection, tokens: candidatePool.tokensOf(selection) };
  };
  return { pool: candidatePool, run, executed, scoreCalls, judge };
}

/** Four candidates: 0 wrong (cheap), 1 correct, 2 invalid but scored highest, 3 correct. */
const FOUR: Fixture['candidates'] = [
  { plan: VALID('cot'), answer: '41', tokens: 10, score: 0.5 },
  { plan: VALID('sc'), answer: '42', tokens: 50, score: 1.0 },
  { plan: INVALID, answer: undefined, tokens: 0, score: 3.0 },
  { plan: VALID('debate'), answer: '42', tokens: 200, score: 1.0 },
];

describe('CandidatePool scores', () => {
  it('refuses a reward model that returns the wrong number of scores as a model fault', async () => {
    const short = new CandidatePool({
      task,
      planTexts: FOUR.map((candidate) => candidate.plan),
      orchestratorUsage: FOUR.map(() => usage(0)),
      executePlan: async (index) => episode(index, FOUR[index]!.answer, FOUR[index]!.tokens),
      rewardModel: { name: 'short', score: async () => [1, 2] },
      judge: createScriptedProvider([]),
      catalog,
    });
    await expect(short.scores()).rejects.toThrow(ModelBehaviorError);
    await expect(short.scores()).rejects.toThrow('reward model short returned 2 scores for 4 plans');
  });
});

describe('Best-of-N strategies on hand-built candidates', () => {
  it('single executes plan 0 and pays for one plan', async () => {
    const { run } = pool({ candidates: FOUR });
    const { selection, tokens } = await run('single', 4);
    expect(selection).toMatchObject({ correct: false, chosen: 0, executed: [0], plansWritten: 1 });
    expect([tokens.orchestrator.totalTokens, tokens.execution.totalTokens, tokens.verification.totalTokens]).toEqual([100, 10, 0]);
  });

  it('first-valid writes plans until one validates and executes it', async () => {
    const invalidFirst: Fixture['candidates'] = [FOUR[2]!, FOUR[1]!, FOUR[0]!];
    const { run } = pool({ candidates: invalidFirst });
    const { selection, tokens } = await run('first-valid', 3);
    expect(selection).toMatchObject({ correct: true, chosen: 1, executed: [1], plansWritten: 2 });
    expect([tokens.orchestrator.totalTokens, tokens.execution.totalTokens, tokens.verification.totalTokens]).toEqual([100 + 101, 50, 0]);
    const allInvalid = pool({ candidates: [FOUR[2]!, FOUR[2]!] });
    expect((await allInvalid.run('first-valid', 2)).selection).toMatchObject({ correct: false, chosen: 0, plansWritten: 2 });
  });

  it('rm selects an invalid plan when it scores highest, and that selection fails', async () => {
    const { run, pool: candidates } = pool({ candidates: FOUR });
    const { selection, tokens } = await run('rm', 4);
    expect(selection).toMatchObject({ correct: false, chosen: 2, executed: [2] });
    // Invalid plans are scored too: the model reads their diagnostic rendering.
    const read = (index: number) => task.question.length + candidates.contextFor(4).canonicalTexts[index]!.length;
    expect(candidates.contextFor(4).canonicalTexts[2]).toMatch(/^INVALID PLAN/);
    expect(tokens.verification.totalTokens).toBe(read(0) + read(1) + read(2) + read(3));
    expect(tokens.orchestrator.totalTokens).toBe(100 + 101 + 102 + 103);
    expect(tokens.execution.totalTokens).toBe(0);
  });

  it('rm breaks a tie by sample order and scores nothing at N = 1', async () => {
    const { run, scoreCalls } = pool({ candidates: FOUR.filter((_, index) => index !== 2) });
    // Candidates 1 and 2 (the old 3) tie at 1.0: the earlier sample wins.
    expect((await run('rm', 3)).selection).toMatchObject({ correct: true, chosen: 1, executed: [1] });
    const atOne = await run('rm', 1);
    expect(atOne.selection.chosen).toBe(0);
    expect(atOne.tokens.verification.totalTokens).toBe(0);
    expect(scoreCalls).toEqual([3]);
  });

  it('rm-topk-vote votes the top k in score order; a tie between answers goes to the better score', async () => {
    const { run } = pool({ candidates: FOUR, topK: 3 });
    // Top 3 by score: 2 (no answer), 1 (42), 3 (42) -> 42 wins with two votes.
    const { selection, tokens } = await run('rm-topk-vote', 4);
    expect(selection).toMatchObject({ correct: true, chosen: 1, executed: [2, 1, 3] });
    expect(tokens.execution.totalTokens).toBe(0 + 50 + 200);
    const tied = pool({
      candidates: [
        { plan: VALID('cot'), answer: '41', tokens: 1, score: 2 },
        { plan: VALID('sc'), answer: '42', tokens: 1, score: 1 },
      ],
      topK: 2,
    });
    expect((await tied.run('rm-topk-vote', 2)).selection).toMatchObject({ correct: false, chosen: 0 });
  });

  it('rm-adaptive stops at a confident margin and keeps executing while unsure', async () => {
    const confident = pool({ candidates: FOUR, adaptiveMargin: 1 });
    // Best 3.0 (invalid), next 1.0: margin 2 >= 1, so one execution, and it fails.
    expect((await confident.run('rm-adaptive', 4)).selection).toMatchObject({ correct: false, executed: [2] });
    const unsure = pool({ candidates: FOUR, adaptiveMargin: 2.5 });
    // Margins 2, 2, 2.5: executes 2, 1, 3 and stops before 0; 42 wins the vote.
    const { selection, tokens } = await unsure.run('rm-adaptive', 4);
    expect(selection).toMatchObject({ correct: true, chosen: 1, executed: [2, 1, 3] });
    expect(tokens.execution.totalTokens).toBe(250);
  });

  it('majority executes all N; ties go to the earliest sample; invalid plans do not vote', async () => {
    const { run } = pool({ candidates: FOUR });
    const atTwo = await run('majority', 2);
    expect(atTwo.selection).toMatchObject({ correct: false, chosen: 0, executed: [0, 1] });
    expect(atTwo.tokens.execution.totalTokens).toBe(60);
    const atFour = await run('majority', 4);
    expect(atFour.selection).toMatchObject({ correct: true, chosen: 1, executed: [0, 1, 2, 3] });
    expect(atFour.tokens.execution.totalTokens).toBe(260);
  });

  it('nothing answered means a wrong vote', async () => {
    const { run } = pool({ candidates: [{ plan: INVALID, answer: undefined, tokens: 0, score: 0 }, { plan: INVALID, answer: undefined, tokens: 0, score: 0 }] });
    expect((await run('majority', 2)).selection).toMatchObject({ correct: false, chosen: undefined });
    expect((await run('oracle', 2)).selection).toMatchObject({ correct: false, chosen: undefined });
  });

  it('oracle is correct when any of the N is', async () => {
    const { run } = pool({ candidates: FOUR });
    expect((await run('oracle', 1)).selection.correct).toBe(false);
    expect((await run('oracle', 2)).selection).toMatchObject({ correct: true, chosen: 1 });
  });

  it('judge reads every trajectory, its reply decides, and its tokens are verification', async () => {
    const { run, judge } = pool({ candidates: FOUR, judgeReplies: ['Candidate 4 is right.\n<choice>4</choice>'] });
    const { selection, tokens } = await run('judge', 4);
    expect(selection).toMatchObject({ correct: true, chosen: 3, executed: [0, 1, 2, 3] });
    const request = judge.calls[0]!;
    expect(request.slot).toBe('judge');
    expect(request.messages.at(-1)!.content.startsWith(TRAJECTORY_JUDGE_HEADER)).toBe(true);
    expect(request.messages.at(-1)!.content).toContain('Final answer: 41');
    // The scripted provider counts words: the judge's verification cost is exactly its usage.
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const promptWords = request.messages.reduce((sum, message) => sum + words(message.content), 0);
    expect(tokens.verification.totalTokens).toBe(promptWords + 5);
    expect(tokens.execution.totalTokens).toBe(260);
    judge.assertAllUsed();
  });

  it('judge falls back to candidate 0 on an unreadable reply and says so', async () => {
    const { run } = pool({ candidates: FOUR, judgeReplies: ['They all look fine.'] });
    expect((await run('judge', 4)).selection).toMatchObject({ chosen: 0, correct: false, judgeFailed: true });
  });

  it('plan-judge reads plans only and executes just its pick; no call at N = 1', async () => {
    const { run, judge, executed } = pool({ candidates: FOUR, judgeReplies: ['<choice>2</choice>'] });
    const { selection, tokens } = await run('plan-judge', 4);
    expect(selection).toMatchObject({ correct: true, chosen: 1, executed: [1] });
    expect(executed).toEqual([1]);
    expect(judge.calls[0]!.messages.at(-1)!.content.startsWith(PLAN_JUDGE_HEADER)).toBe(true);
    expect(judge.calls[0]!.messages.at(-1)!.content).toContain('INVALID PLAN');
    expect(tokens.verification.totalTokens).toBeGreaterThan(0);
    const single = await run('plan-judge', 1);
    expect(single.tokens.verification.totalTokens).toBe(0);
    judge.assertAllUsed();
  });

  it('executions are shared across strategies and N, but each strategy pays for its own', async () => {
    const { run, executed } = pool({ candidates: FOUR });
    const majority = await run('majority', 4);
    const single = await run('single', 4);
    const rm = await run('rm-topk-vote', 4);
    expect(executed.sort()).toEqual([0, 1, 2, 3]);
    expect(majority.tokens.execution.totalTokens).toBe(260);
    expect(single.tokens.execution.totalTokens).toBe(10);
    expect(rm.tokens.execution.totalTokens).toBe(250);
  });
});

describe('the template pool: rm+templates and rm-templates-only', () => {
  const PLAN = (agent: string, params: Record<string, unknown> = {}) => JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent, input: '', params }], edges: [], answer: 'A' });
  const TEMPLATES = [
    { name: 'cot', planText: PLAN('cot'), orchestratorUsage: usage(0) },
    { name: 'reflexion-3', planText: PLAN('reflexion', { maxRounds: 3 }), orchestratorUsage: usage(0) },
  ];

  /** Two samples, then the two templates; `scores` and `members` by pool index; answers: sample 0 wrong, sample 1 right, cot wrong, reflexion-3 right. */
  function templatePool(scores: number[], members?: number[][], templateMargin = 1, referenceTemplate?: number, routes?: Record<string, number>, routeCosts?: Record<string, number>, estimates?: PlanEstimate[], readingGain?: (suite: string, pricePerToken: number, margin: number) => number | undefined, samplesMayReplace?: (suite: string, margin: number) => boolean | undefined) {
    const planTexts = [PLAN('sc', { samples: 7 }), PLAN('cot')];
    const answers = ['41', '42', '41', '42'];
    const rewardModel = {
      name: 'fake',
      ensembleSize: members?.[0]?.length ?? 0,
      score: async () => scores,
      scoreMembers: async () => members ?? scores.map(() => []),
      routedTemplates: Object.keys(routes ?? {}),
      routedSuites: [task.suite],
      routeTemplates: (_task: string, _suite: string, names: readonly string[]) => names.map((name) => routes?.[name]),
      ...(routeCosts !== undefined && { templateExecutionTokens: (_task: string, _suite: string, names: readonly string[]) => names.map((name) => routeCosts[name]) }),
      ...(estimates !== undefined && { canEstimate: true, estimate: async () => estimates }),
      ...(readingGain !== undefined && { readingGain }),
      ...(samplesMayReplace !== undefined && { samplesMayReplace }),
    };
    const candidatePool = new CandidatePool({
      task,
      planTexts,
      templates: TEMPLATES,
      orchestratorUsage: planTexts.map(() => usage(100)),
      executePlan: async (index) => episode(index, answers[index], 10),
      rewardModel,
      judge: createScriptedProvider([]),
      catalog,
      templateMargin,
      ...(referenceTemplate !== undefined && { referenceTemplate }),
      routeTemplates: routes !== undefined,
    });
    const run = async (name: StrategyName, objective?: SelectionObjective) => {
      const selection = await STRATEGIES[name].select(candidatePool.contextFor(2, objective));
      return { selection, pick: selection.chosen === undefined ? undefined : await candidatePool.pickOf(selection.chosen, { withScore: true }) };
    };
    return { pool: candidatePool, run };
  }

  it('a tie between a sample and a template goes to the template, and a sample of a template plan is of its kind', async () => {
    // Sample 1 is the cot template's plan, written by the orchestrator: same canonical text, same score.
    const { run, pool: candidates } = templatePool([0, 2, 2, 1]);
    expect((await run('rm+templates')).selection).toMatchObject({ chosen: 2, correct: false, usedTemplates: true });
    expect(await candidates.pickOf(1)).toEqual({ index: 1, source: 'sample', kind: 'cot' });
    expect(await candidates.pickOf(0)).toEqual({ index: 0, source: 'sample', kind: 'sample:sc(samples=7)' });
    expect(await candidates.pickOf(3, { withScore: true })).toEqual({ index: 3, source: 'template', kind: 'reflexion-3', score: 1 });
  });

  it('without heads a sample must score strictly higher than the best template', async () => {
    expect((await templatePool([3, 0, 2.5, 1]).run('rm+templates')).selection).toMatchObject({ chosen: 0, correct: false });
    expect((await templatePool([2.5, 0, 2.5, 1]).run('rm+templates')).selection).toMatchObject({ chosen: 2 });
  });

  it('with heads a sample must beat the best template by more than the margin times their spread', async () => {
    // Sample 0 is 0.5 above the best template (cot); its heads disagree (differences 1.5 and -0.5: sd 1.41).
    const unsure = [[2, 0], [0, 0], [0.5, 0.5], [0, 0]];
    const { run } = templatePool([3, 0, 2.5, 1], unsure);
    const kept = (await run('rm+templates')).selection;
    expect(kept.chosen).toBe(2);
    expect(kept.uncertainty).toBeUndefined();
    // Heads that agree (differences 0.6 and 0.4: sd 0.14): the sample is taken, and the spread is recorded.
    const sure = [[1.1, 0.9], [0, 0], [0.5, 0.5], [0, 0]];
    const taken = (await templatePool([3, 0, 2.5, 1], sure).run('rm+templates')).selection;
    expect(taken.chosen).toBe(0);
    expect(taken.uncertainty).toBeCloseTo(Math.SQRT2 / 10, 10);
    // A margin of 0 takes the sample whatever the heads say.
    expect((await templatePool([3, 0, 2.5, 1], unsure, 0).run('rm+templates')).selection.chosen).toBe(0);
  });

  it("another template replaces the family's reference template only when the heads agree it is better", async () => {
    // reflexion-3 (pool index 3) scores 0.5 above the reference cot (index 2).
    const unsure = [[0, 0], [0, 0], [0, 0], [1.5, -0.5]];
    const sure = [[0, 0], [0, 0], [0, 0], [0.6, 0.4]];
    for (const strategy of ['rm-templates-only', 'rm+templates'] as const) {
      expect((await templatePool([0, 0, 1, 1.5], unsure, 1, 2).run(strategy)).selection.chosen).toBe(2);
      expect((await templatePool([0, 0, 1, 1.5], sure, 1, 2).run(strategy)).selection.chosen).toBe(3);
      // Without a reference, or without heads (a strictly higher score), the best-scored template.
      expect((await templatePool([0, 0, 1, 1.5], unsure, 1).run(strategy)).selection.chosen).toBe(3);
      expect((await templatePool([0, 0, 1, 1.5], undefined, 1, 2).run(strategy)).selection.chosen).toBe(3);
      expect((await templatePool([0, 0, 1.5, 1.5], undefined, 1, 3).run(strategy)).selection.chosen).toBe(3);
    }
  });

  it("with a template router both strategies take the template it rates highest, whatever the scores or the reference, unless it lacks one of the pool's templates", async () => {
    // The scores and the sure heads prefer reflexion-3 (index 3); the router rates cot higher on this task.
    const sure = [[0, 0], [0, 0], [0, 0], [0.6, 0.4]];
    for (const strategy of ['rm-templates-only', 'rm+templates'] as const) {
      expect((await templatePool([0, 0, 1, 1.5], sure, 1, 3, { cot: 0.7, 'reflexion-3': 0.4 }).run(strategy)).selection.chosen).toBe(2);
      expect((await templatePool([0, 0, 1.5, 1], sure, 1, 2, { cot: 0.3, 'reflexion-3': 0.4 }).run(strategy)).selection.chosen).toBe(3);
      // A tie goes to the first template in library order.
      expect((await templatePool([0, 0, 1, 1.5], sure, 1, 3, { cot: 0.5, 'reflexion-3': 0.5 }).run(strategy)).selection.chosen).toBe(2);
      // A router that has not learnt reflexion-3 is not used: the scores and heads decide, as without one.
      expect((await templatePool([0, 0, 1, 1.5], sure, 1, 2, { cot: 0.9 }).run(strategy)).selection.chosen).toBe(3);
    }
    // Routed, rm-templates-only reads the task once and no template plan; by scores it reads every template with the task.
    const routed = templatePool([0, 0, 1, 1.5], sure, 1, 3, { cot: 0.7, 'reflexion-3': 0.4 });
    const routedTokens = routed.pool.tokensOf((await routed.run('rm-templates-only')).selection).verification.totalTokens;
    const scored = templatePool([0, 0, 1, 1.5], sure, 1, 3);
    const scoredTokens = scored.pool.tokensOf((await scored.run('rm-templates-only')).selection).verification.totalTokens;
    const context = scored.pool.contextFor(2);
    expect(routedTokens).toBe(countTokens(task.question));
    expect(routedTokens).toBeGreaterThan(0);
    expect(scoredTokens).toBe(context.scoreTokens(2) + context.scoreTokens(3));
    expect(scoredTokens).toBeGreaterThan(2 * routedTokens);
    // rm+templates still takes a sample that scores above every template (by the margin), but not one that only beats the routed template's score.
    expect((await templatePool([3, 0, 1, 1.5], undefined, 1, undefined, { cot: 0.7, 'reflexion-3': 0.4 }).run('rm+templates')).selection.chosen).toBe(0);
    expect((await templatePool([1.2, 0, 1, 1.5], undefined, 1, undefined, { cot: 0.7, 'reflexion-3': 0.4 }).run('rm+templates')).selection.chosen).toBe(2);
  });

  it("under a cost objective rm-templates-only with a router weighs the router's probabilities against its record of each template's tokens, reading only the task", async () => {
    // The router rates reflexion-3 (index 3) a little above cot (index 2); its record says reflexion-3 costs five times as much.
    const routes = { cot: 0.6, 'reflexion-3': 0.65 };
    const costs = { cot: 1000, 'reflexion-3': 5000 };
    const { run, pool: candidates } = templatePool([0, 0, 1, 0], undefined, 1, undefined, routes, costs);
    const chosen = async (objective: SelectionObjective) => (await run('rm-templates-only', objective)).selection.chosen;
    expect(await chosen({ kind: 'accuracy' })).toBe(3);
    expect(await chosen({ kind: 'price', pricePerToken: 1e-5 })).toBe(3);
    expect(await chosen({ kind: 'price', pricePerToken: 1e-4 })).toBe(2);
    expect(await chosen({ kind: 'cheapest-within', margin: 0.01 })).toBe(3);
    expect(await chosen({ kind: 'cheapest-within', margin: 0.1 })).toBe(2);
    // The fake model has no cost head: only the router's estimates can have priced them, and the router reads no plan.
    const { selection } = await run('rm-templates-only', { kind: 'price', pricePerToken: 1e-4 });
    expect(candidates.tokensOf(selection).verification.totalTokens).toBe(countTokens(task.question));
    // Without the record's tokens a cost objective needs the model's own estimates, which this model cannot give.
    await expect(templatePool([0, 0, 1, 0], undefined, 1, undefined, routes).run('rm-templates-only', { kind: 'price', pricePerToken: 1e-4 })).rejects.toThrow(/cost head and a calibration/);
  });

  it('under a price, rm+templates reads only the task when scoring its candidates cannot pay, and takes the router\'s priced pick', async () => {
    // The router is sure of cot (index 2) at no execution cost: scoring could gain at most 0.05 of accuracy.
    const routes = { cot: 0.95, 'reflexion-3': 0.9 };
    const costs = { cot: 0, 'reflexion-3': 5000 };
    // The scores prefer sample 1 (right) by far: they decide whenever they are read.
    const { run, pool: candidates } = templatePool([0, 9, 1, 0], undefined, 1, undefined, routes, costs);
    const context = candidates.contextFor(2);
    const reading = [0, 1, 2, 3].reduce((sum, index) => sum + context.scoreTokens(index), 0) - countTokens(task.question);
    // Reading every candidate at this price costs more than the 0.05 it could gain: no scoring, the router's pick.
    const expensive = (await run('rm+templates', { kind: 'price', pricePerToken: 0.1 / reading })).selection;
    expect(expensive).toMatchObject({ chosen: 2, plansWritten: 2, usedTemplates: true });
    expect(candidates.tokensOf(expensive).verification.totalTokens).toBe(countTokens(task.question));
    // At a price where it could pay, the candidates are scored (and the fake model, with no cost head, cannot estimate: the price objective is refused).
    await expect(run('rm+templates', { kind: 'price', pricePerToken: 0.01 / reading })).rejects.toThrow(/cost head and a calibration/);
    // Other objectives never skip the scoring.
    expect((await run('rm+templates', { kind: 'accuracy' })).selection.chosen).toBe(1);
  });

  it("under a cost objective with a pricing router, rm+templates reads only the samples and the router's pick, and weighs every template by the router's estimates", async () => {
    // The router rates reflexion-3 (index 3) a little above cot (index 2), at five times its tokens.
    const routes = { cot: 0.6, 'reflexion-3': 0.65 };
    const costs = { cot: 1000, 'reflexion-3': 5000 };
    // The model's own estimates call cot certain and free: they must not price the templates.
    const estimates: PlanEstimate[] = [
      { successProbability: 0.7, executionTokens: 0 },
      { successProbability: 0.2, executionTokens: 0 },
      { successProbability: 0.99, executionTokens: 0 },
      { successProbability: 0.1, executionTokens: 9000 },
    ];
    // cot scores far above everything, but under a cost objective it is not read; no sample beats reflexion-3's score of 1.
    const unread = templatePool([0.5, 0, 9, 1], undefined, 1, undefined, routes, costs, estimates);
    const chosen = async (pool: typeof unread, objective: SelectionObjective) => (await pool.run('rm+templates', objective)).selection;
    expect((await chosen(unread, { kind: 'price', pricePerToken: 1e-5 })).chosen).toBe(3);
    expect((await chosen(unread, { kind: 'price', pricePerToken: 1e-4 })).chosen).toBe(2);
    expect((await chosen(unread, { kind: 'cheapest-within', margin: 0.1 })).chosen).toBe(2);
    const context = unread.pool.contextFor(2);
    const priced = await chosen(unread, { kind: 'price', pricePerToken: 1e-5 });
    expect(unread.pool.tokensOf(priced).verification.totalTokens).toBe(context.scoreTokens(0) + context.scoreTokens(1) + context.scoreTokens(3));
    // The accuracy objective still reads every candidate, and takes the router's pick.
    const accurate = await chosen(unread, { kind: 'accuracy' });
    expect(accurate.chosen).toBe(3);
    expect(unread.pool.tokensOf(accurate).verification.totalTokens).toBe([0, 1, 2, 3].reduce((sum, index) => sum + context.scoreTokens(index), 0));
    // A sample that beats the router's pick by the margin is weighed by the model's estimate of it.
    const passing = templatePool([3, 0, 9, 1], undefined, 1, undefined, routes, costs, estimates);
    expect((await chosen(passing, { kind: 'price', pricePerToken: 1e-5 })).chosen).toBe(0);
    expect((await chosen(passing, { kind: 'cheapest-within', margin: 0.01 })).chosen).toBe(0);
  });

  it("under a price, rm+templates reads the samples only where the model expects them to add more than their reading costs", async () => {
    const routes = { cot: 0.6, 'reflexion-3': 0.65 };
    const costs = { cot: 1000, 'reflexion-3': 5000 };
    const estimates: PlanEstimate[] = [
      { successProbability: 0.99, executionTokens: 0 },
      { successProbability: 0.2, executionTokens: 0 },
      { successProbability: 0.6, executionTokens: 1000 },
      { successProbability: 0.65, executionTokens: 5000 },
    ];
    const price = { kind: 'price', pricePerToken: 2e-5 } as const;
    const asked: [string, number, number][] = [];
    // Sample 0 beats the router's pick and the model calls it certain and free: reading finds it.
    const poolWithGain = (gain: number) =>
      templatePool([3, 0, 9, 1], undefined, 1, undefined, routes, costs, estimates, (suite, pricePerToken, margin) => {
        asked.push([suite, pricePerToken, margin]);
        return gain;
      });
    const context = poolWithGain(0).pool.contextFor(2);
    const readingCost = price.pricePerToken * (context.scoreTokens(0) + context.scoreTokens(1) + context.scoreTokens(3));
    // Expected to add more than the reading costs: read, and take the sample.
    const worth = poolWithGain(readingCost * 1.5);
    const read = (await worth.run('rm+templates', price)).selection;
    expect(read.chosen).toBe(0);
    expect(worth.pool.tokensOf(read).verification.totalTokens).toBe(context.scoreTokens(0) + context.scoreTokens(1) + context.scoreTokens(3));
    expect(asked.at(-1)).toEqual([task.suite, 2e-5, 1]);
    // Expected to add less: the router's priced pick (cot: 0.6 - 0.02 against reflexion-3's 0.65 - 0.1), reading only the task.
    const notWorth = poolWithGain(readingCost / 2);
    const skipped = (await notWorth.run('rm+templates', price)).selection;
    expect(skipped.chosen).toBe(2);
    expect(notWorth.pool.tokensOf(skipped).verification.totalTokens).toBe(context.questionTokens);
    // Free reading is always done, whatever the estimate.
    expect((await poolWithGain(0).run('rm+templates', { kind: 'price', pricePerToken: 0 })).selection.chosen).toBe(0);
  });

  it("rm+templates is the router alone, writing and reading no sample, on a suite where the model's switches to samples did not pay", async () => {
    const routes = { cot: 0.7, 'reflexion-3': 0.4 };
    const asked: [string, number][] = [];
    const guarded = (answer: boolean | undefined, withRoutes = true) =>
      templatePool([3, 0, 1, 1.5], undefined, 1, undefined, withRoutes ? routes : undefined, { cot: 1000, 'reflexion-3': 5000 }, [
        { successProbability: 0.99, executionTokens: 0 },
        { successProbability: 0.2, executionTokens: 0 },
        { successProbability: 0.7, executionTokens: 1000 },
        { successProbability: 0.4, executionTokens: 5000 },
      ], () => 1, (suite, margin) => {
        asked.push([suite, margin]);
        return answer;
      });
    // Sample 0 scores above every template: taken where switches paid, or where the model has no record.
    expect((await guarded(true).run('rm+templates')).selection.chosen).toBe(0);
    expect((await guarded(undefined).run('rm+templates')).selection.chosen).toBe(0);
    expect(asked.at(-1)).toEqual([task.suite, 1]);
    // Where they did not: the router's pick, no plan written, only the task read, under every objective.
    const blocked = guarded(false);
    for (const objective of [undefined, { kind: 'price', pricePerToken: 0 }, { kind: 'price', pricePerToken: 1e-9 }, { kind: 'cheapest-within', margin: 0.5 }] as const) {
      const { selection } = await blocked.run('rm+templates', objective);
      expect(selection).toMatchObject({ plansWritten: 0, usedTemplates: true });
      expect(selection.chosen).toBe(2);
      const tokens = blocked.pool.tokensOf(selection);
      expect(tokens.orchestrator.totalTokens).toBe(0);
      expect(tokens.verification.totalTokens).toBe(countTokens(task.question));
    }
    // Without a router the record does not apply: scores decide.
    expect((await guarded(false, false).run('rm+templates')).selection.chosen).toBe(0);
  });

  it('rm-templates-only picks the best template and writes no sampled plan', async () => {
    const { run, pool: candidates } = templatePool([9, 9, 1, 2]);
    const { selection, pick } = await run('rm-templates-only');
    expect(selection).toMatchObject({ chosen: 3, correct: true, plansWritten: 0, usedTemplates: true });
    expect(pick).toEqual({ index: 3, source: 'template', kind: 'reflexion-3', score: 2 });
    const tokens = candidates.tokensOf(selection);
    expect(tokens.orchestrator.totalTokens).toBe(0);
    expect(tokens.verification.totalTokens).toBeGreaterThan(0);
  });
});
