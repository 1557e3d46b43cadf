import type { TrainablePolicy } from '../../environment/index.js';

/** A softmax over `logits.length` arms; the action is an arm index. */
export interface BanditCheckpoint {
  name: string;
  step: number;
  logits: Float64Array;
}

export function logSoftmax(logits: Float64Array, arm: number): number {
  const largest = Math.max(...logits);
  let total = 0;
  for (const logit of logits) total += Math.exp(logit - largest);
  return (logits[arm] as number) - largest - Math.log(total);
}

/**
 * A tiny exact policy for trainer tests: arms are played in turn (sample i of a run plays arm
 * i mod K, so groups are known in advance) while log-probabilities and gradients are those of
 * the softmax, so every update can be computed by hand.
 */
export function createBanditPolicy(arms: number): TrainablePolicy<BanditCheckpoint, number, Float64Array> & { plays: number[] } {
  const plays: number[] = [];
  return {
    name: 'bandit',
    plays,
    async sample(_task, checkpoint) {
      const arm = plays.length % arms;
      plays.push(arm);
      return { text: `arm ${arm}`, action: arm, logProb: logSoftmax(checkpoint.logits, arm), usage: { promptTokens: 2, completionTokens: 1, totalTokens: 3 } };
    },
    logProb: (_task, arm, checkpoint) => logSoftmax(checkpoint.logits, arm),
    zeroGradient: () => new Float64Array(arms),
    addGradLogProb(gradient, _task, arm, checkpoint, scale) {
      for (let other = 0; other < arms; other++) {
        const probability = Math.exp(logSoftmax(checkpoint.logits, other));
        gradient[other] = (gradient[other] as number) + scale * ((other === arm ? 1 : 0) - probability);
      }
    },
    applyGradient(checkpoint, gradient, stepSize) {
      return { ...checkpoint, step: checkpoint.step + 1, logits: checkpoint.logits.map((logit, index) => logit + stepSize * (gradient[index] as number)) };
    },
    rename: (checkpoint, name) => ({ ...checkpoint, name }),
    ref: (checkpoint) => ({ name: 'bandit', checkpoint: checkpoint.name, step: checkpoint.step }),
    serialize: (checkpoint) => ({ ...checkpoint, logits: Array.from(checkpoint.logits) }),
  };
}
