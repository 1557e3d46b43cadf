import { UserError } from '../../core/index.js';
import { addScaledWeights } from './apply-gradient.js';
import { addGradLogProb, type Decision } from './log-linear.js';
import { cloneCheckpoint, zeroWeights, type PolicyCheckpoint } from './policy-checkpoint.js';
import { HEAD_NAMES } from './policy-heads.js';
import { questionFeatures } from './question-features.js';

/** One sampled plan's decisions and the reward its execution (or a reward model) gave it. */
export interface RewardedSample {
  question: string;
  decisions: readonly Decision[];
  reward: number;
}

export interface ImproveCheckpointOptions {
  /** Step size of gradient ascent on the mean advantage-weighted log-probability. */
  learningRate: number;
  /** Gradient steps over the whole sample set (probabilities are recomputed each step). */
  steps: number;
  /** Name of the new checkpoint. @default the input checkpoint's name */
  name?: string;
}

/**
 * REINFORCE with a per-question mean baseline: each step ascends
 * (1/n) Σ_i (r_i - mean_{j: q_j = q_i} r_j) ∇ log π(decisions_i | q_i), so decisions that did
 * better than the question's average become more likely. A way to produce stronger
 * checkpoints from rewarded samples (GRPO, issue 7, builds on the same gradients). Returns a
 * new checkpoint whose `step` is the input's plus `steps`; the input is not changed.
 *
 * @example
 * const better = improveCheckpoint(baseCheckpoint(), samples, { learningRate: 0.5, steps: 20, name: 'reinforce-1' });
 */
export function improveCheckpoint(checkpoint: PolicyCheckpoint, samples: readonly RewardedSample[], options: ImproveCheckpointOptions): PolicyCheckpoint {
  const { learningRate, steps, name = checkpoint.name } = options;
  if (!(learningRate > 0) || !Number.isFinite(learningRate)) throw new UserError(`learningRate must be a positive number, got ${learningRate}`);
  if (!Number.isInteger(steps) || steps < 0) throw new UserError(`steps must be a non-negative integer, got ${steps}`);
  const improved = cloneCheckpoint(checkpoint, { name, step: checkpoint.step + steps });
  if (samples.length === 0) return improved;

  const totals = new Map<string, { sum: number; count: number }>();
  for (const sample of samples) {
    const total = totals.get(sample.question) ?? { sum: 0, count: 0 };
    total.sum += sample.reward;
    total.count += 1;
    totals.set(sample.question, total);
  }
  const features = new Map<string, Float64Array>();
  for (const question of totals.keys()) features.set(question, questionFeatures(question));
  const advantages = samples.map((sample) => {
    const total = totals.get(sample.question) as { sum: number; count: number };
    return sample.reward - total.sum / total.count;
  });

  const gradient = zeroWeights();
  for (let step = 0; step < steps; step++) {
    for (const head of HEAD_NAMES) gradient[head].fill(0);
    samples.forEach((sample, index) => {
      const advantage = advantages[index] as number;
      if (advantage !== 0) addGradLogProb(gradient, features.get(sample.question) as Float64Array, sample.decisions, improved, advantage / samples.length);
    });
    addScaledWeights(improved.weights, gradient, learningRate);
  }
  return improved;
}
