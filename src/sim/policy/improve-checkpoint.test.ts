import { describe, expect, test } from 'vitest';
import { Rng } from '../../core/rng.js';
import { improveCheckpoint, type RewardedSample } from './improve-checkpoint.js';
import { applyGradient } from './apply-gradient.js';
import { decisionLogProb, gradLogProb, logProbOf } from './log-linear.js';
import { baseCheckpoint } from './policy-checkpoint.js';
import { HEAD_NAMES, POLICY_HEADS } from './policy-heads.js';
import { samplePlan } from './sample-plan.js';
import { FAKE_FAMILIES, SAMPLE_QUESTIONS, fakeAnswerDirectly } from './test-fixtures/fake-families.js';

const options = { families: FAKE_FAMILIES, answerDirectly: fakeAnswerDirectly };
const arithQuestion = SAMPLE_QUESTIONS[0];
const multihopQuestion = SAMPLE_QUESTIONS[2];

/** Reward: decomposed plans for arithmetic; search per hop for multi-hop. */
function reward(question: string, plan: ReturnType<typeof samplePlan>['plan']): number {
  if (question === multihopQuestion) return plan.nodes.length > 0 && plan.nodes.every((node) => node.agent === 'search') ? 1 : 0;
  return plan.dom === 'high' && plan.nodes.length >= 3 ? 1 : 0;
}

function rewardedSamples(checkpoint: ReturnType<typeof baseCheckpoint>, seed: number): RewardedSample[] {
  const samples: RewardedSample[] = [];
  for (const question of [arithQuestion, multihopQuestion]) {
    for (let index = 0; index < 64; index++) {
      const { decisions, plan } = samplePlan(question, new Rng(seed * 1000 + index), checkpoint, options);
      samples.push({ question, decisions, reward: reward(question, plan) });
    }
  }
  return samples;
}

const meanReward = (samples: readonly RewardedSample[]) => samples.reduce((sum, sample) => sum + sample.reward, 0) / samples.length;

describe('improveCheckpoint', () => {
  test('raises the probability of rewarded decisions and moves only consulted heads', () => {
    const base = baseCheckpoint();
    const samples = rewardedSamples(base, 1);
    const improved = improveCheckpoint(base, samples, { learningRate: 2, steps: 10, name: 'reinforce' });
    expect(improved).toMatchObject({ name: 'reinforce', step: 10 });
    expect(base.step).toBe(0);
    // The objective REINFORCE ascends: the advantage-weighted log-probability of the samples.
    const objective = (checkpoint: typeof base) => {
      const byQuestion = (question: string) => samples.filter((sample) => sample.question === question);
      return samples.reduce((sum, sample) => sum + (sample.reward - meanReward(byQuestion(sample.question))) * logProbOf(sample.question, sample.decisions, checkpoint), 0);
    };
    expect(objective(improved)).toBeGreaterThan(objective(base) + 1);
    // The decisions that earn the reward became more likely: DoM high for arithmetic, search for multi-hop.
    const probability = (head: 'dom' | 'searchFirst', choice: string, question: string, checkpoint: typeof base) => {
      const features = samples.find((sample) => sample.question === question)!.decisions[0]!.features;
      return Math.exp(decisionLogProb({ head, choice: (POLICY_HEADS[head] as readonly string[]).indexOf(choice), features }, checkpoint));
    };
    expect(probability('dom', 'high', arithQuestion, improved)).toBeGreaterThan(probability('dom', 'high', arithQuestion, base) + 0.1);
    expect(probability('searchFirst', 'yes', multihopQuestion, improved)).toBeGreaterThan(probability('searchFirst', 'yes', multihopQuestion, base) + 0.1);
    for (const head of HEAD_NAMES) {
      const moved = improved.weights[head].some((value, index) => value !== base.weights[head][index]);
      expect(moved).toBe(samples.some((sample) => sample.decisions.some((decision) => decision.head === head)));
    }
  });

  test('repeated rounds of sampling and improving raise the mean reward', () => {
    let checkpoint = baseCheckpoint();
    const before = meanReward(rewardedSamples(checkpoint, 100));
    for (let round = 0; round < 6; round++) checkpoint = improveCheckpoint(checkpoint, rewardedSamples(checkpoint, round + 1), { learningRate: 2, steps: 5 });
    const after = meanReward(rewardedSamples(checkpoint, 100));
    expect(checkpoint.step).toBe(30);
    expect(after).toBeGreaterThan(before + 0.2);
    // Search for multi-hop was learned from the text: searchFirst now leans yes there, not for arithmetic.
    const yes = { head: 'searchFirst' as const, choice: POLICY_HEADS.searchFirst.indexOf('yes') };
    const features = (question: string) => samplePlan(question, new Rng(0), checkpoint, options).decisions[0]!.features;
    expect(decisionLogProb({ ...yes, features: features(multihopQuestion) }, checkpoint)).toBeGreaterThan(decisionLogProb({ ...yes, features: features(arithQuestion) }, checkpoint));
  });

  test('equal rewards within a question change nothing (the baseline removes them)', () => {
    const base = baseCheckpoint();
    const samples = rewardedSamples(base, 2).map((sample) => ({ ...sample, reward: sample.question === arithQuestion ? 1 : 0.3 }));
    const improved = improveCheckpoint(base, samples, { learningRate: 1, steps: 3 });
    for (const head of HEAD_NAMES) improved.weights[head].forEach((value, index) => expect(value).toBeCloseTo(base.weights[head][index] as number, 12));
  });

  test('rejects a bad learning rate or step count', () => {
    expect(() => improveCheckpoint(baseCheckpoint(), [], { learningRate: 0, steps: 1 })).toThrow(/learningRate/);
    expect(() => improveCheckpoint(baseCheckpoint(), [], { learningRate: 1, steps: 1.5 })).toThrow(/steps/);
  });
});

describe('applyGradient', () => {
  test('steps along the gradient and counts the step', () => {
    const base = baseCheckpoint();
    const { decisions } = samplePlan(arithQuestion, new Rng(3), base, options);
    const gradient = gradLogProb(arithQuestion, decisions, base);
    const next = applyGradient(base, gradient, 0.1, { name: 'grpo' });
    expect(next).toMatchObject({ name: 'grpo', step: 1 });
    expect(logProbOf(arithQuestion, decisions, next)).toBeGreaterThan(logProbOf(arithQuestion, decisions, base));
    expect(next.weights.dom[1]).toBeCloseTo(base.weights.dom[1]! + 0.1 * gradient.dom[1]!, 12);
  });
});
