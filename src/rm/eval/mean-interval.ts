import type { Interval } from './wilson-interval.js';

/** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom (beyond, the normal's 1.96 is within 2%). */
const T_975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/**
 * 95% interval of the mean of a few independent runs (seeds of a training run): mean ± t(n-1)
 * · sd / √n, Student's t because the sd is estimated from the same few values. Fewer than two
 * values give a zero-width interval at the mean (nothing to estimate a spread from).
 *
 * @example
 * meanInterval([0.55, 0.58, 0.53]) // { mean: 0.5533, ci: { low: 0.4913, high: 0.6154 } }
 */
export function meanInterval(values: readonly number[]): { mean: number; ci: Interval } {
  const count = values.length;
  if (count === 0) return { mean: 0, ci: { low: 0, high: 0 } };
  const mean = values.reduce((sum, value) => sum + value, 0) / count;
  if (count < 2) return { mean, ci: { low: mean, high: mean } };
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (count - 1);
  const half = (T_975[count - 2] ?? 1.96) * Math.sqrt(variance / count);
  return { mean, ci: { low: mean - half, high: mean + half } };
}
