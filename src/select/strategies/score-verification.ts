import { emptyUsage, type Usage } from '../../core/index.js';
import type { SelectionContext } from '../selection-strategy.js';

/**
 * Verification tokens of scoring the N candidates with a reward model: the tokens it reads
 * (task text + canonical plan, per plan). A local model generates nothing, so they are all
 * prompt tokens; with one candidate there is nothing to choose and nothing is scored.
 */
export function scoreVerification(context: SelectionContext, indices: readonly number[] = sampledIndices(context.n)): Usage {
  if (indices.length <= 1) return emptyUsage();
  let tokens = 0;
  for (const index of indices) tokens += context.scoreTokens(index);
  return { promptTokens: tokens, completionTokens: 0, totalTokens: tokens };
}

/** Pool indices 0..n-1: the first N sampled plans. */
export function sampledIndices(n: number): number[] {
  return Array.from({ length: n }, (_, index) => index);
}

/** Scores of the first N candidates (none are needed, and none asked for, when N = 1). */
export async function candidateScores(context: SelectionContext): Promise<readonly number[]> {
  if (context.n <= 1) return [0];
  return (await context.scores()).slice(0, context.n);
}
