import { describe, expect, it } from 'vitest';
import type { Task } from '../core/task.js';
import { trainGrpo, type HeldOutEvaluation } from './grpo-trainer.js';
import type { RewardSource } from './reward-source.js';
import { createBanditPolicy, logSoftmax, type BanditCheckpoint } from './test-fixtures/bandit-policy.js';

const task: Task = { id: 't1', suite: 'test', question: 'pick an arm', metadata: {} };
const start = (logits: number[]): BanditCheckpoint => ({ name: 'start', step: 0, logits: Float64Array.from(logits) });

/** Arm 0 pays `paid`, every other arm 0; each plan costs 10 execution and 1 verification token. */
function armReward(paid = 1): RewardSource & { steps: number[] } {
  const steps: number[] = [];
  return {
    name: 'arms',
    steps,
    async reward(groups, context) {
      steps.push(context.step);
      return groups.map((group) =>
        group.plans.map((plan) => ({ reward: plan.text === 'arm 0' ? paid : 0, executionTokens: 10, verificationTokens: 1, executed: true, correct: plan.text === 'arm 0' })),
      );
    },
  };
}

const probability = (logits: Float64Array, arm: number) => Math.exp(logSoftmax(logits, arm));

describe('trainGrpo', () => {
  it('takes the on-policy step, then stops where both ratios are clipped', async () => {
    const policy = createBanditPolicy(2);
    const result = await trainGrpo({
      policy,
      from: start([0, 0]),
      tasks: [task],
      reward: armReward(),
      config: { steps: 1, tasksPerStep: 1, groupSize: 2, innerEpochs: 2, learningRate: 1, clipEpsilon: 0.2, name: 'bandit-grpo' },
    });
    const advantage = 0.5 / (Math.SQRT1_2 + 1e-4);
    // Epoch 1 (ratio 1): each sample adds (A_i / 2)(e_i - p) with p = (0.5, 0.5): together (A/2, -A/2).
    // Epoch 2: ρ_0 = σ(A) / 0.5 ≈ 1.34 > 1.2 with A > 0, ρ_1 ≈ 0.66 < 0.8 with A < 0: both clipped.
    expect(Array.from(result.checkpoint.logits)).toEqual([advantage / 2, -advantage / 2]);
    expect(result.checkpoint).toMatchObject({ name: 'bandit-grpo', step: 2 });
    expect(result.history[0]).toMatchObject({ step: 1, meanReward: 0.5, clipFraction: 0.5, flatGroups: 0, executedAccuracy: 0.5 });
  });

  it('passes ρA as the gradient on later epochs when the ratio stays inside the clip range', async () => {
    const result = await trainGrpo({
      policy: createBanditPolicy(2),
      from: start([0, 0]),
      tasks: [task],
      reward: armReward(),
      config: { steps: 1, tasksPerStep: 1, groupSize: 2, innerEpochs: 2, learningRate: 1, clipEpsilon: 1 },
    });
    const advantage = 0.5 / (Math.SQRT1_2 + 1e-4);
    const first = Float64Array.from([advantage / 2, -advantage / 2]);
    const p0 = probability(first, 0);
    const p1 = 1 - p0;
    // Sample 0 (arm 0, A): scale A·ρ_0 with ρ_0 = p0/0.5; sample 1 (arm 1, -A): scale -A·ρ_1 with ρ_1 = p1/0.5.
    const scale0 = (advantage * (p0 / 0.5)) / 2;
    const scale1 = (-advantage * (p1 / 0.5)) / 2;
    const gradient0 = scale0 * (1 - p0) + scale1 * (0 - p0);
    const gradient1 = scale0 * (0 - p1) + scale1 * (1 - p1);
    expect(result.checkpoint.logits[0]).toBeCloseTo((first[0] as number) + gradient0, 14);
    expect(result.checkpoint.logits[1]).toBeCloseTo((first[1] as number) + gradient1, 14);
    expect(result.history[0]?.clipFraction).toBe(0);
  });

  it('with flat rewards, moves only by the k3 KL penalty, towards the reference', async () => {
    const from = start([1, 0]);
    const beta = 0.5;
    const result = await trainGrpo({
      policy: createBanditPolicy(2),
      from,
      reference: start([0, 0]),
      tasks: [task],
      reward: armReward(0),
      config: { steps: 1, tasksPerStep: 1, groupSize: 2, innerEpochs: 1, learningRate: 1, klCoefficient: beta },
    });
    const p = [probability(from.logits, 0), probability(from.logits, 1)];
    const ratios = p.map((value) => 0.5 / value);
    // d(-β k3)/d log π = -β (1 - r); sample i plays arm i.
    const scales = ratios.map((ratio) => (-beta * (1 - ratio)) / 2);
    const gradient = [0, 1].map((arm) => scales.reduce((sum, scale, played) => sum + scale * ((arm === played ? 1 : 0) - (p[arm] as number)), 0));
    expect(result.checkpoint.logits[0]).toBeCloseTo(1 + (gradient[0] as number), 14);
    expect(result.checkpoint.logits[1]).toBeCloseTo(gradient[1] as number, 14);
    const k3 = ratios.map((ratio) => ratio - 1 - Math.log(ratio));
    expect(result.history[0]?.meanKl).toBeCloseTo(((k3[0] as number) + (k3[1] as number)) / 2, 14);
    expect(result.history[0]?.flatGroups).toBe(1);
    // The logit gap shrank: the policy moved towards the uniform reference.
    expect((result.checkpoint.logits[0] as number) - (result.checkpoint.logits[1] as number)).toBeLessThan(1);
  });

  it('logs cumulative tokens by role, evaluates on schedule and hands off checkpoints', async () => {
    const evaluated: number[] = [];
    const handedOff: number[] = [];
    const reward = armReward();
    const result = await trainGrpo({
      policy: createBanditPolicy(2),
      from: start([0, 0]),
      tasks: [task, { ...task, id: 't2' }],
      reward,
      config: { steps: 5, tasksPerStep: 2, groupSize: 2, evalInterval: 2, checkpointInterval: 3 },
      evaluate: async (checkpoint): Promise<HeldOutEvaluation> => {
        evaluated.push(checkpoint.step);
        return { accuracy: probability(checkpoint.logits, 0), episodes: 10, tokens: 100 };
      },
      onCheckpoint: (_checkpoint, step) => void handedOff.push(step),
    });
    expect(reward.steps).toEqual([0, 1, 2, 3, 4]);
    expect(result.history.map((log) => log.stepTokens)).toEqual(Array(5).fill({ orchestrator: 12, execution: 40, verification: 4, total: 56 }));
    expect(result.history.at(-1)?.tokens).toEqual({ orchestrator: 60, execution: 200, verification: 20, total: 280 });
    expect(result.evaluations.map((point) => [point.step, point.trainingTokens.total])).toEqual([[0, 0], [2, 112], [4, 224], [5, 280]]);
    expect(result.history.filter((log) => log.evaluation).map((log) => log.step)).toEqual([2, 4, 5]);
    expect(result.evaluationTokens).toBe(400);
    expect(handedOff).toEqual([3, 5]);
    // Arm 0 pays: its probability rises step after step.
    const accuracies = result.evaluations.map((point) => point.accuracy);
    expect(accuracies).toEqual([...accuracies].sort((a, b) => a - b));
    expect(accuracies.at(-1)).toBeGreaterThan(0.8);
  });

  it('refuses a reward source that returns the wrong number of rewards', async () => {
    const short: RewardSource = { name: 'short', reward: async (groups) => groups.map(() => []) };
    await expect(trainGrpo({ policy: createBanditPolicy(2), from: start([0, 0]), tasks: [task], reward: short, config: { steps: 1, tasksPerStep: 1, groupSize: 2 } })).rejects.toThrow(
      'reward source short returned 0 rewards for 2 plans',
    );
  });
});
