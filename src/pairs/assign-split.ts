import { type PairSplit, sha256 } from '../core/index.js';

/** Fractions of tasks per split; they sum to 1. */
export interface SplitFractions {
  train: number;
  validation: number;
  test: number;
}

/**
 * The split of a task: a hash of (seed, task id) mapped to [0, 1) and cut at the fractions.
 * A task's split depends on nothing but its id and the seed, never on which other tasks exist,
 * so every pair of a task lands in the same split and adding tasks never moves old ones.
 * @example assignSplit('gsm8k-17', 0, { train: 0.8, validation: 0.1, test: 0.1 }) // 'train'
 */
export function assignSplit(taskId: string, seed: number, fractions: SplitFractions): PairSplit {
  // sha256, not FNV: ids that differ only in their last characters (task-017, task-018) must still land far apart.
  const position = Number.parseInt(sha256(`${seed}\u0000${taskId}`).slice(0, 12), 16) / 2 ** 48;
  if (position < fractions.train) return 'train';
  if (position < fractions.train + fractions.validation) return 'validation';
  return 'test';
}
