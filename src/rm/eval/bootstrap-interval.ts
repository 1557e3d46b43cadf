import { Rng } from '../../core/index.js';
import type { Interval } from './wilson-interval.js';

export interface BootstrapOptions {
  /** Resamples drawn. @default 1000 */
  resamples?: number;
  /** Seed of the resampling. @default 0 */
  seed?: number;
}

/**
 * 95% percentile-bootstrap interval of the mean of `values` (Efron 1979): resample the values
 * with replacement, take the 2.5th and 97.5th percentiles of the resampled means. Used where
 * the unit of independence is a task (per-task Best-of-N accuracies), not a single trial.
 * A single value (or none) gives a zero-width interval at the mean.
 *
 * @example
 * bootstrapMeanInterval([0, 1, 1, 1], { seed: 1 }) // about { low: 0.25, high: 1 }
 */
export function bootstrapMeanInterval(values: ArrayLike<number>, options: BootstrapOptions = {}): Interval {
  const { resamples = 1000, seed = 0 } = options;
  const count = values.length;
  if (count === 0) return { low: 0, high: 0 };
  const rng = new Rng(seed);
  const means = new Float64Array(resamples);
  for (let resample = 0; resample < resamples; resample++) {
    let sum = 0;
    for (let draw = 0; draw < count; draw++) sum += values[Math.floor(rng.next() * count)] as number;
    means[resample] = sum / count;
  }
  return percentileInterval(means);
}

/**
 * 95% interval of the difference `mean(a) - mean(b)` of two paired measurements (the same
 * items scored by two models), resampling whole clusters: pairs from one task are correlated,
 * so the task is the unit that is resampled.
 *
 * @example
 * pairedClusterBootstrap([1, 1, 0], [0, 1, 0], ['t1', 't1', 't2'], { seed: 3 })
 */
export function pairedClusterBootstrap(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  clusters: readonly string[],
  options: BootstrapOptions = {},
): { difference: number; ci: Interval } {
  const { resamples = 1000, seed = 0 } = options;
  // Per cluster: item count and the summed difference, so a resample is one pass over clusters.
  const index = new Map<string, number>();
  const sizes: number[] = [];
  const sums: number[] = [];
  let totalDifference = 0;
  for (let item = 0; item < clusters.length; item++) {
    const cluster = clusters[item] as string;
    let position = index.get(cluster);
    if (position === undefined) {
      position = sizes.length;
      index.set(cluster, position);
      sizes.push(0);
      sums.push(0);
    }
    const difference = (a[item] as number) - (b[item] as number);
    sizes[position]! += 1;
    sums[position]! += difference;
    totalDifference += difference;
  }
  const clusterCount = sizes.length;
  if (clusterCount === 0) return { difference: 0, ci: { low: 0, high: 0 } };
  const rng = new Rng(seed);
  const differences = new Float64Array(resamples);
  for (let resample = 0; resample < resamples; resample++) {
    let items = 0;
    let sum = 0;
    for (let draw = 0; draw < clusterCount; draw++) {
      const chosen = Math.floor(rng.next() * clusterCount);
      items += sizes[chosen] as number;
      sum += sums[chosen] as number;
    }
    differences[resample] = sum / items;
  }
  return { difference: totalDifference / clusters.length, ci: percentileInterval(differences) };
}

/** The 2.5th and 97.5th percentiles (linear interpolation between order statistics). */
function percentileInterval(samples: Float64Array): Interval {
  samples.sort();
  return { low: quantile(samples, 0.025), high: quantile(samples, 0.975) };
}

function quantile(sorted: Float64Array, probability: number): number {
  const position = probability * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  const fraction = position - below;
  return (sorted[below] as number) * (1 - fraction) + (sorted[above] as number) * fraction;
}
