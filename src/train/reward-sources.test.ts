import { describe, expect, it } from 'vitest';
import { createBlockRegistry } from '../agents/index.js';
import { ModelBehaviorError } from '../core/errors.js';
import type { RewardModel } from '../core/reward-model.js';
import type { Task } from '../core/task.js';
import { countTokens } from '../llm/index.js';
import { canonicalPlanText, defaultRewardPrompt } from '../rm/remote/index.js';
import { exactMatchGrader } from '../tasks/index.js';
import { createFunctionProvider } from '../testing/index.js';
import { createExecutionReward } from './execution-reward.js';
import { createHybridReward } from './hybrid-reward.js';
import { createJudgeReward, judgePlanMessages, parseJudgeScore } from './judge-reward.js';
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

function execution(answer: string) {
  const provider = createFunctionProvider(() => `Two and two make ${answer}.\n<answer>${answer}</answer>`);
  return { provider, source: createExecutionReward({ provider, blocks: createBlockRegistry(), grader: exactMatchGrader }) };
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
    const source = createExecutionReward({ provider, blocks: createBlockRegistry(), grader: exactMatchGrader, executedWeight: 0, correctWeight: 1 });
    const [rewards] = await source.reward([group], context);
    expect(rewards?.map((result) => result.reward)).toEqual([1, 0, 0, 0]);
  });
});

describe('judge reward', () => {
  it('scales the last <score> to [0, 1], counts judge tokens as verification, and counts unreadable replies', async () => {
    const provider = createFunctionProvider((request) => {
      const user = request.messages.at(-1)?.content ?? '';
      if (user.includes('INVALID PLAN')) return 'No plan here.';
      return user.includes('"4"') || user.includes('>4<') ? 'Looks right. <score>3</score> on reflection <score>9</score>' : '<score>2</score>';
    });
    const judge = createJudgeReward({ provider });
    const [rewards] = await judge.reward([group], context);
    expect(rewards?.map((result) => result.reward)).toEqual([0.9, 0.2, 0.2, 0]);
    expect(judge.unreadable).toBe(1);
    expect(provider.calls.map((call) => [call.slot, call.seed, call.temperature])).toEqual([
      ['judge', 100, 0],
      ['judge', 101, 0],
      ['judge', 102, 0],
      ['judge', 103, 0],
    ]);
    expect(rewards?.every((result) => result.verificationTokens > 0 && result.executionTokens === 0 && !result.executed)).toBe(true);
    expect(provider.calls[0]?.messages).toEqual(judgePlanMessages(task.question, canonicalPlanText(PLANS[0] as string)));
  });

  it('reads scores tolerantly and clamps them', () => {
    expect(parseJudgeScore('<score> 7 </score>')).toBe(7);
    expect(parseJudgeScore('<SCORE>12</SCORE>')).toBe(10);
    expect(parseJudgeScore('<score>-3</score>')).toBe(0);
    expect(parseJudgeScore('<score>7.5</score>')).toBe(7.5);
    expect(parseJudgeScore('score: 7')).toBeUndefined();
  });
});

describe('hybrid reward', () => {
  const sigmoid = (value: number) => 1 / (1 + Math.exp(-value));
  const fixedModel: RewardModel = { name: 'fixed', score: async (_task, plans) => plans.map((_, index) => index - 1.5) };

  it('is σ(rm score) when nothing is executed', async () => {
    const provider = createFunctionProvider(() => '<answer>4</answer>');
    const hybrid = createHybridReward({ provider, blocks: createBlockRegistry(), grader: exactMatchGrader, rm: createRmReward(fixedModel), executedFraction: 0 });
    const [rewards] = await hybrid.reward([group], context);
    expect(rewards?.map((result) => result.reward)).toEqual([-1.5, -0.5, 0.5, 1.5].map(sigmoid));
    expect(provider.calls).toHaveLength(0);
  });

  it('adds λ (e - ē) for executed plans, ē the mean over the step, and adds their execution tokens', async () => {
    const provider = createFunctionProvider(() => '<answer>4</answer>');
    const rm: RewardSource = createRmReward(fixedModel);
    const hybrid = createHybridReward({ provider, blocks: createBlockRegistry(), grader: exactMatchGrader, rm, executedFraction: 1, executionWeight: 2 });
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
    const hybrid = createHybridReward({ provider, blocks: createBlockRegistry(), grader: exactMatchGrader, rm: createRmReward(fixedModel), executedFraction: 0.25 });
    const many: RewardGroup = { task, plans: Array.from({ length: 400 }, (_, index) => ({ text: cotPlan, seed: index, sampleIndex: index })) };
    const [first] = await hybrid.reward([many], context);
    const [second] = await hybrid.reward([many], context);
    const executed = first?.filter((result) => result.executed).length ?? 0;
    expect(executed).toBeGreaterThan(70);
    expect(executed).toBeLessThan(130);
    expect(second?.map((result) => result.executed)).toEqual(first?.map((result) => result.executed));
  });
});
