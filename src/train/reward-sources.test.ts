import { describe, expect, it } from 'vitest';
import { createBlockRegistry } from '../agents/index.js';
import { ModelBehaviorError } from '../core/errors.js';
import type { RewardModel } from '../core/reward-model.js';
import type { Task } from '../core/task.js';
import type { Environment } from '../environment/index.js';
import { countTokens } from '../llm/index.js';
import { createLlmOrchestrator } from '../orchestrator/index.js';
import { canonicalPlanText, defaultRewardPrompt } from '../rm/remote/index.js';
import { exactMatchGrader } from '../tasks/index.js';
import { createFunctionProvider, type RecordingProvider } from '../testing/index.js';
import { createExecutionReward } from './execution-reward.js';
import { createHybridReward } from './hybrid-reward.js';
import { createJudgeReward } from './judge-reward.js';
import { buildPlanJudgeMessages } from '../prompts/judge-prompts.js';
import { createSimEnvironment, generateScenarioTasks, loadScenario } from '../sim/index.js';
import type { RewardGroup, RewardSource } from './reward-source.js';
import { createRmReward } from './rm-reward.js';

const task: Task = { id: 'sum', suite: 'test', question: 'What is 2 + 2?', answer: '4', metadata: {} };
const direct = (answer: string) => JSON.stringify({ dom: 'low', nodes: [], edges: [], directAnswer: answer });
const cotPlan = JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'cot', input: '', params: {} }], edges: [], answer: 'A' });
const PLANS = [direct('4'), direct('5'), cotPlan, 'I would think hard about it.'];
const group: RewardGroup = { task, plans: PLANS.map((text, index) => ({ text, seed: 100 + index, sampleIndex: index })) };
const context = { orchestrator: { name: 'test', checkpoint: 'c', step: 0 }, step: 0 };

/** Scores a plan by its length in characters: a reward model users could plug in. */
const lengthModel: RewardModel = { name: 'length', score: async (_task, plans) => plans.map((plan) => (typeof plan === 'string' ? plan.length : 0)) };

/** An environment whose every model call `provider` answers: every registered block, exact-match grading, no documents. */
function environmentOf(provider: RecordingProvider): Environment {
  const blocks = createBlockRegistry();
  return {
    name: 'function',
    provider,
    blocks,
    retriever: undefined,
    grader: exactMatchGrader,
    tasks: () => [task],
    orchestrator: () => createLlmOrchestrator({ provider, catalog: blocks }),
    identity: 'function',
    close: () => {},
  };
}

function execution(answer: string) {
  const provider = createFunctionProvider(() => `Two and two make ${answer}.\n<answer>${answer}</answer>`);
  return { provider, source: createExecutionReward({ environment: environmentOf(provider) }) };
}

describe('rm reward', () => {
  it('is the model score, nothing executed, verification = tokens of the text the model reads', async () => {
    const [rewards] = await createRmReward(lengthModel).reward([group], context);
    const prompt = countTokens(defaultRewardPrompt(task.question));
    expect(rewards).toEqual(PLANS.map((text) => ({ reward: text.length, executionTokens: 0, verificationTokens: prompt + countTokens(canonicalPlanText(text)), executed: false })));
    // An unparseable plan is still read, as its diagnostic form.
    expect(canonicalPlanText(PLANS[3] as string)).toMatch(/^INVALID PLAN/);
  });

  it('refuses a model that returns too few scores', async () => {
    const broken: RewardModel = { name: 'broken', score: async () => [1] };
    await expect(createRmReward(broken).reward([group], context)).rejects.toThrow(ModelBehaviorError);
  });
});

describe('execution reward', () => {
  it('is 0.1 * ok + 0.9 * correct per executed plan, with the sub-agents tokens', async () => {
    const { provider, source } = execution('4');
    const [rewards] = await source.reward([group], context);
    expect(rewards?.map((result) => result.reward)).toEqual([1, 0.1, 1, 0]);
    expect(rewards?.map((result) => result.correct)).toEqual([true, false, true, false]);
    expect(rewards?.every((result) => result.executed)).toBe(true);
    // Only the cot plan called a model: its tokens are the execution tokens.
    expect(provider.calls).toHaveLength(1);
    expect(rewards?.map((result) => result.executionTokens > 0)).toEqual([false, false, true, false]);
    expect(provider.calls[0]?.seed).toBeDefined();
  });

  it('gives only w_exec to a plan that ran but answered wrong, with custom weights', async () => {
    const provider = createFunctionProvider(() => '<answer>5</answer>');
    const source = createExecutionReward({ environment: environmentOf(provider), executedWeight: 0, correctWeight: 1 });
    const [rewards] = await source.reward([group], context);
    expect(rewards?.map((result) => result.reward)).toEqual([1, 0, 0, 0]);
  });
});

describe('judge reward', () => {
  it('rewards the share of judge calls that chose each plan, with the judge tokens as verification', async () => {
    // Chooses plan 1 on the first round, plan 3 on the second, and answers nothing readable on the third.
    const replies = ['Plan 1 is best.\n<choice>1</choice>', 'On reflection <choice>1</choice> no, <choice>3</choice>', 'They all look fine.'];
    const provider = createFunctionProvider((request) => replies[request.sampleIndex ?? 0] as string);
    const judge = createJudgeReward({ provider, rounds: 3, concurrency: 1 });
    const [rewards] = await judge.reward([group], context);
    expect(rewards?.map((result) => result.reward)).toEqual([1 / 3, 0, 1 / 3, 0]);
    expect(judge.unreadable).toBe(1);
    expect(provider.calls.map((call) => [call.slot, call.temperature])).toEqual([['judge', 0], ['judge', 0], ['judge', 0]]);
    expect(new Set(provider.calls.map((call) => call.seed)).size).toBe(3);
    expect(provider.calls[0]?.messages).toEqual(buildPlanJudgeMessages(task.question, PLANS.map((text) => canonicalPlanText(text))));
    const spent = await Promise.all(provider.calls.map((call, index) => provider.chat({ ...call, sampleIndex: index })));
    const total = spent.reduce((sum, response) => sum + response.usage.totalTokens, 0);
    expect(rewards?.reduce((sum, result) => sum + result.verificationTokens, 0)).toBe(total);
    expect(rewards?.every((result) => result.executionTokens === 0 && !result.executed)).toBe(true);
  });

  it('is usable on the simulated environment, whose plan judge prefers plans that work', async () => {
    const environment = await createSimEnvironment(loadScenario('default'));
    const [sumTask] = generateScenarioTasks(environment.scenario, environment.families, { split: 'train', count: 1 });
    const judged: RewardGroup = { task: sumTask!, plans: [{ text: 'no plan at all', seed: 1, sampleIndex: 0 }, { text: direct('unknown'), seed: 2, sampleIndex: 1 }, { text: cotPlan, seed: 3, sampleIndex: 2 }] };
    const judge = createJudgeReward({ provider: environment.provider, rounds: 4 });
    const [rewards] = await judge.reward([judged], context);
    expect(judge.unreadable).toBe(0);
    expect(rewards?.reduce((sum, result) => sum + result.reward, 0)).toBeCloseTo(1, 12);
    expect(rewards?.[0]?.reward).toBe(0);
    expect(rewards?.[0]?.verificationTokens).toBeGreaterThan(0);
  });
});

describe('hybrid reward', () => {
  const sigmoid = (value: number) => 1 / (1 + Math.exp(-value));
  const fixedModel: RewardModel = { name: 'fixed', score: async (_task, plans) => plans.map((_, index) => index - 1.5) };

  it('is σ(rm score) when nothing is executed', async () => {
    const provider = createFunctionProvider(() => '<answer>4</answer>');
    const hybrid = createHybridReward({ environment: environmentOf(provider), rm: createRmReward(fixedModel), executedFraction: 0 });
    const [rewards] = await hybrid.reward([group], context);
    expect(rewards?.map((result) => result.reward)).toEqual([-1.5, -0.5, 0.5, 1.5].map(sigmoid));
    expect(provider.calls).toHaveLength(0);
  });

  it('adds λ (e - ē) for executed plans, ē the mean over the step, and adds their execution tokens', async () => {
    const provider = createFunctionProvider(() => '<answer>4</answer>');
    const rm: RewardSource = createRmReward(fixedModel);
    const hybrid = createHybridReward({ environment: environmentOf(provider), rm, executedFraction: 1, executionWeight: 2 });
    const [rewards] = await hybrid.reward([group], context);
    const executionRewards = [1, 0.1, 1, 0];
    const mean = executionRewards.reduce((sum, value) => sum + value, 0) / 4;
    const expected = [-1.5, -0.5, 0.5, 1.5].map((score, index) => sigmoid(score) + 2 * ((executionRewards[index] as number) - mean));
    rewards?.forEach((result, index) => expect(result.reward).toBeCloseTo(expected[index] as number, 14));
    expect(rewards?.every((result) => result.executed)).toBe(true);
    const [rmOnly] = await rm.reward([group], context);
    expect(rewards?.[2]?.executionTokens).toBeGreaterThan(0);
    expect(rewards?.map((result) => result.verificationTokens)).toEqual(rmOnly?.map((result) => result.verificationTokens));
  });

  it('executes about the fraction asked for, the same plans for the same seeds', async () => {
    const provider = createFunctionProvider(() => '<answer>4</answer>');
    const hybrid = createHybridReward({ environment: environmentOf(provider), rm: createRmReward(fixedModel), executedFraction: 0.25 });
    const many: RewardGroup = { task, plans: Array.from({ length: 400 }, (_, index) => ({ text: cotPlan, seed: index, sampleIndex: index })) };
    const [first] = await hybrid.reward([many], context);
    const [second] = await hybrid.reward([many], context);
    const executed = first?.filter((result) => result.executed).length ?? 0;
    expect(executed).toBeGreaterThan(70);
    expect(executed).toBeLessThan(130);
    expect(second?.map((result) => result.executed)).toEqual(first?.map((result) => result.executed));
  });
});
