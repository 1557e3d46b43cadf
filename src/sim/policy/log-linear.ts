import type { Rng } from '../../core/index.js';
import type { PolicyCheckpoint, PolicyWeights } from './policy-checkpoint.js';
import { zeroWeights } from './policy-checkpoint.js';
import { questionFeatures } from './question-features.js';
import { headSize, type HeadName } from './policy-heads.js';

/** One drawn choice of one head, with the features it was drawn from (shared by a plan's decisions). */
export interface Decision {
  head: HeadName;
  /** Index into `POLICY_HEADS[head]`. */
  choice: number;
  features: Float64Array;
}

/** Largest head size; scratch space for probabilities is allocated once at this size. */
const MAX_HEAD_SIZE = 8;
const PROBABILITIES = new Float64Array(MAX_HEAD_SIZE);

/**
 * Softmax of `weights · features / temperature` for one head, written into `out` (a view of
 * `size` entries). Subtracts the largest logit first so large weights cannot overflow.
 */
export function headProbabilities(weights: Float64Array, features: Float64Array, size: number, out: Float64Array = PROBABILITIES, temperature = 1): Float64Array {
  const featureCount = features.length;
  let largest = -Infinity;
  for (let choice = 0; choice < size; choice++) {
    let logit = 0;
    const row = choice * featureCount;
    for (let feature = 0; feature < featureCount; feature++) logit += (weights[row + feature] as number) * (features[feature] as number);
    const scaled = logit / temperature;
    out[choice] = scaled;
    if (scaled > largest) largest = scaled;
  }
  let total = 0;
  for (let choice = 0; choice < size; choice++) {
    const value = Math.exp((out[choice] as number) - largest);
    out[choice] = value;
    total += value;
  }
  for (let choice = 0; choice < size; choice++) out[choice] = (out[choice] as number) / total;
  return out.subarray(0, size);
}

/**
 * Draws one head's choice from the checkpoint's distribution, sharpened or flattened by
 * `temperature` (logits / temperature); temperature 0 takes the most likely choice (greedy,
 * first on ties). The draw consumes one number from `rng` either way.
 */
export function sampleDecision(head: HeadName, features: Float64Array, checkpoint: PolicyCheckpoint, rng: Rng, temperature = 1): Decision {
  const size = headSize(head);
  let draw = rng.next();
  if (temperature <= 0) {
    const probabilities = headProbabilities(checkpoint.weights[head], features, size);
    let best = 0;
    for (let index = 1; index < size; index++) if ((probabilities[index] as number) > (probabilities[best] as number)) best = index;
    return { head, choice: best, features };
  }
  const probabilities = headProbabilities(checkpoint.weights[head], features, size, PROBABILITIES, temperature);
  let choice = size - 1;
  for (let index = 0; index < size; index++) {
    draw -= probabilities[index] as number;
    if (draw < 0) {
      choice = index;
      break;
    }
  }
  return { head, choice, features };
}

/** Log-probability of one decision under a checkpoint, at the given features. */
export function decisionLogProb(decision: Decision, checkpoint: PolicyCheckpoint, features: Float64Array = decision.features): number {
  const probabilities = headProbabilities(checkpoint.weights[decision.head], features, headSize(decision.head));
  return Math.log(probabilities[decision.choice] as number);
}

/**
 * Log-probability of a plan's decisions for a question: the sum over decisions of
 * log softmax(W_head · x)[choice], with x recomputed from the question text.
 */
export function logProbOf(question: string, decisions: readonly Decision[], checkpoint: PolicyCheckpoint): number {
  const features = questionFeatures(question);
  let total = 0;
  for (const decision of decisions) total += decisionLogProb(decision, checkpoint, features);
  return total;
}

/**
 * Gradient of `logProbOf` with respect to every weight, in the checkpoint's layout. For a
 * softmax head, d log p_c / d W[k, f] = (1[k = c] - p_k) · x_f; heads not consulted get zeros.
 */
export function gradLogProb(question: string, decisions: readonly Decision[], checkpoint: PolicyCheckpoint): PolicyWeights {
  const gradient = zeroWeights();
  addGradLogProb(gradient, questionFeatures(question), decisions, checkpoint, 1);
  return gradient;
}

/** Adds `scale · ∇ log p(decisions)` into `gradient` (no allocation; for training loops). */
export function addGradLogProb(gradient: PolicyWeights, features: Float64Array, decisions: readonly Decision[], checkpoint: PolicyCheckpoint, scale: number): void {
  const featureCount = features.length;
  for (const decision of decisions) {
    const size = headSize(decision.head);
    const probabilities = headProbabilities(checkpoint.weights[decision.head], features, size);
    const target = gradient[decision.head];
    for (let choice = 0; choice < size; choice++) {
      const coefficient = scale * ((choice === decision.choice ? 1 : 0) - (probabilities[choice] as number));
      const row = choice * featureCount;
      for (let feature = 0; feature < featureCount; feature++) target[row + feature] = (target[row + feature] as number) + coefficient * (features[feature] as number);
    }
  }
}
