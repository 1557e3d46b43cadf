/** Number formatting shared by the report's tables and captions (plain text; escape before use). */

/** A fraction as a percentage with one decimal, e.g. `0.4567` -> `45.7%`. */
export function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}

/** A difference of fractions in percentage points with a sign, e.g. `0.052` -> `+5.2`. */
export function points(difference: number): string {
  const value = difference * 100;
  const text = value.toFixed(1);
  return value > 0 && text !== '0.0' ? `+${text}` : text === '-0.0' ? '0.0' : text;
}

/** A 95% interval of fractions, e.g. `[0.41, 0.52]` -> `41.0–52.0%`. */
export function percentInterval([low, high]: readonly [number, number]): string {
  return `${(low * 100).toFixed(1)}–${(high * 100).toFixed(1)}%`;
}

/** A 95% interval of a difference in points, e.g. `[-0.01, 0.08]` -> `[-1.0, +8.0]`. */
export function pointsInterval([low, high]: readonly [number, number]): string {
  return `[${points(low)}, ${points(high)}]`;
}

/** A token count, grouped and compact: `1385.6` -> `1,386`, `2380000` -> `2.38M`. */
export function tokens(value: number): string {
  if (value >= 10_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(2)}M`;
  return Math.round(value).toLocaleString('en-US');
}

/** A plain number with at most `digits` decimals, trailing zeros dropped. */
export function decimal(value: number, digits = 2): string {
  return Number(value.toFixed(digits)).toLocaleString('en-US', { maximumFractionDigits: digits });
}

/** A duration in milliseconds as `1 min 23 s` or `42.0 s`. */
export function duration(durationMs: number): string {
  const seconds = durationMs / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}
