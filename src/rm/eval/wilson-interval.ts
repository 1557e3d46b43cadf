/** A two-sided confidence interval. */
export interface Interval {
  low: number;
  high: number;
}

/** z for a two-sided 95% interval (the 0.975 quantile of the standard normal). */
export const Z_95 = 1.959963984540054;

/**
 * Wilson score interval for a binomial proportion (Wilson 1927). Unlike the normal
 * approximation it stays inside [0, 1] and is sensible at 0 or `total` successes, which small
 * per-source pair counts often produce. No data gives the uninformative [0, 1].
 *
 * @example
 * wilsonInterval(8, 10) // { low: 0.4902..., high: 0.9433... }
 */
export function wilsonInterval(successes: number, total: number, z: number = Z_95): Interval {
  if (total <= 0) return { low: 0, high: 1 };
  const proportion = successes / total;
  const z2 = z * z;
  const denominator = 1 + z2 / total;
  const center = (proportion + z2 / (2 * total)) / denominator;
  const halfWidth = (z / denominator) * Math.sqrt((proportion * (1 - proportion)) / total + z2 / (4 * total * total));
  // At 0 or `total` successes the bound is exactly 0 or 1; rounding would leave 1e-16 off.
  return { low: successes <= 0 ? 0 : Math.max(0, center - halfWidth), high: successes >= total ? 1 : Math.min(1, center + halfWidth) };
}
