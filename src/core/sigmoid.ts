/**
 * The logistic function 1 / (1 + e^-x). It never yields NaN: for x below about -709 e^-x
 * overflows to Infinity and the result is exactly 0.
 *
 * @example
 * sigmoid(0) // 0.5
 */
export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
