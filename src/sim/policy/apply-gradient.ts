import { cloneCheckpoint, type PolicyCheckpoint, type PolicyWeights } from './policy-checkpoint.js';
import { HEAD_NAMES } from './policy-heads.js';

/** `target += scale · source`, head by head, in place. */
export function addScaledWeights(target: PolicyWeights, source: PolicyWeights, scale: number): void {
  for (const head of HEAD_NAMES) {
    const into = target[head];
    const from = source[head];
    for (let index = 0; index < into.length; index++) into[index] = (into[index] as number) + scale * (from[index] as number);
  }
}

/**
 * One gradient-ascent step: a new checkpoint with `weights + stepSize · gradient` and `step + 1`
 * (the input is not changed). The gradient has the checkpoint's layout, e.g. a weighted sum of
 * `gradLogProb` results as a GRPO trainer builds it.
 *
 * @example
 * const next = applyGradient(current, gradient, 0.1, { name: 'grpo' });
 */
export function applyGradient(checkpoint: PolicyCheckpoint, gradient: PolicyWeights, stepSize: number, changes: { name?: string } = {}): PolicyCheckpoint {
  const next = cloneCheckpoint(checkpoint, { step: checkpoint.step + 1, ...changes });
  addScaledWeights(next.weights, gradient, stepSize);
  return next;
}
