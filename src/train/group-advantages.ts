/**
 * GRPO advantages: each reward minus its group's mean, divided by the group's standard
 * deviation plus `stdEpsilon` when `scaleRewards` (as TRL: unbiased standard deviation, so a
 * group of G uses G - 1). `rewards` holds consecutive groups of `groupSize`. A group whose
 * rewards are all equal gets zero advantages: it carries no signal.
 *
 * @example
 * groupAdvantages([1, 0, 0, 0], 4, { scaleRewards: false, stdEpsilon: 1e-4 }) // [0.75, -0.25, -0.25, -0.25]
 */
export function groupAdvantages(rewards: readonly number[], groupSize: number, options: { scaleRewards: boolean; stdEpsilon: number }): Float64Array {
  if (rewards.length % groupSize !== 0) throw new RangeError(`${rewards.length} rewards do not split into groups of ${groupSize}`);
  const advantages = new Float64Array(rewards.length);
  for (let start = 0; start < rewards.length; start += groupSize) {
    let sum = 0;
    for (let index = start; index < start + groupSize; index++) sum += rewards[index] as number;
    const mean = sum / groupSize;
    let squares = 0;
    for (let index = start; index < start + groupSize; index++) squares += ((rewards[index] as number) - mean) ** 2;
    const std = groupSize > 1 ? Math.sqrt(squares / (groupSize - 1)) : 0;
    const scale = options.scaleRewards ? 1 / (std + options.stdEpsilon) : 1;
    for (let index = start; index < start + groupSize; index++) advantages[index] = ((rewards[index] as number) - mean) * scale;
  }
  return advantages;
}
