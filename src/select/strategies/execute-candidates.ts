import type { Episode } from '../../core/index.js';
import type { SelectionContext } from '../selection-strategy.js';

/** Executes candidates (cached by the context) and maps each index to its episode. */
export async function executeCandidates(context: SelectionContext, indices: readonly number[]): Promise<Map<number, Episode>> {
  const episodes = await Promise.all(indices.map((index) => context.execute(index)));
  return new Map(indices.map((index, position) => [index, episodes[position] as Episode]));
}

/** Candidate indices 0..n-1. */
export function allCandidates(n: number): number[] {
  return Array.from({ length: n }, (_, index) => index);
}
