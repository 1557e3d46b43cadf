import { deriveSeed, Rng } from '../core/index.js';
import type { BtConfig } from './bt-config.js';
import { trainBradleyTerry, type BtTrainingResult } from './bt-trainer.js';
import { createHead } from './heads/create-head.js';
import type { RewardHead } from './heads/reward-head.js';
import { SPLIT_CODES, type PairDataset } from './pair-dataset.js';

/**
 * How far plan a's scores sit above plan b's across the bootstrap heads (each array one score per
 * head, in the same head order): the mean of the per-head differences and their sample standard
 * deviation, the model's uncertainty about which of the two is better (0 with fewer than 2 heads).
 */
export function headDifference(a: readonly number[], b: readonly number[]): { mean: number; spread: number } {
  const count = Math.min(a.length, b.length);
  if (count === 0) return { mean: 0, spread: 0 };
  let mean = 0;
  for (let head = 0; head < count; head++) mean += a[head]! - b[head]!;
  mean /= count;
  if (count < 2) return { mean, spread: 0 };
  let squares = 0;
  for (let head = 0; head < count; head++) squares += (a[head]! - b[head]! - mean) ** 2;
  return { mean, spread: Math.sqrt(squares / (count - 1)) };
}

/** One head of a bootstrap ensemble and how its training went. */
export interface BootstrapHead {
  head: RewardHead;
  training: BtTrainingResult;
  /** Training tasks drawn (with repetition) for its resample. */
  tasksDrawn: number;
}

/**
 * Trains `size` heads with `config` (no tuning: the chosen hyperparameters), each on a bootstrap
 * resample of the training tasks: the train split's tasks are drawn with replacement as many
 * times as there are tasks, and each pair's weight is multiplied by how often its task was drawn
 * (pairs of one task are correlated, so the task is the unit resampled, as in the evaluation's
 * bootstrap). Early stopping reads the validation split, unchanged. Where the heads disagree
 * about two plans, the training data said too little to tell them apart: a plan shape seen on
 * few tasks gets scores that move from resample to resample (Lakshminarayanan et al. 2017 use
 * such ensembles for predictive uncertainty; Efron's bootstrap over the independent unit).
 * Deterministic in `config.seed`.
 */
export function trainBootstrapHeads(dataset: PairDataset, config: BtConfig, size: number): BootstrapHead[] {
  const heads: BootstrapHead[] = [];
  const trainCode = SPLIT_CODES.train;
  // The unit resampled: a pair's task, or the pair itself in a dataset built without task ids.
  const unitOf = (pair: number) => dataset.taskIds?.[pair] ?? `pair:${pair}`;
  const units = [...new Set(Array.from({ length: dataset.split.length }, (_, pair) => pair).filter((pair) => dataset.split[pair] === trainCode).map(unitOf))];
  for (let member = 0; member < size; member++) {
    const rng = new Rng(deriveSeed(config.seed, `bootstrap-head:${member}`));
    const draws = new Map<string, number>();
    for (let draw = 0; draw < units.length; draw++) {
      const unit = units[Math.floor(rng.next() * units.length)]!;
      draws.set(unit, (draws.get(unit) ?? 0) + 1);
    }
    const weight = Float64Array.from(dataset.weight, (value, pair) => (dataset.split[pair] === trainCode ? value * (draws.get(unitOf(pair)) ?? 0) : value));
    const memberConfig: BtConfig = { ...config, tune: false, seed: deriveSeed(config.seed, `bootstrap-order:${member}`) };
    const head = createHead(config.head, dataset.matrix.dimension, memberConfig.seed);
    const training = trainBradleyTerry({ ...dataset, weight }, head, memberConfig);
    heads.push({ head, training, tasksDrawn: draws.size });
  }
  return heads;
}
