import type { MinedSource } from '../mining-config.js';
import type { MiningEpisode, TaskGroup } from '../mining-episode.js';

/** One preference a miner found: who won, how clearly, and why. */
export interface MinedPair {
  winner: MiningEpisode;
  loser: MiningEpisode;
  /** How clear the preference is; when caps apply, stronger pairs are kept first. */
  strength: number;
  margin?: number;
  /** What decided the pair, stored with it. */
  evidence: Record<string, unknown>;
}

/**
 * A pair source: one rule that compares the episodes of one task. Miners never execute anything;
 * they read what the episodes already hold.
 */
export interface PairMiner {
  readonly source: MinedSource;
  /** Why this miner cannot use the task at all (e.g. it needs grades and the task has none), else undefined. */
  skipReason(group: TaskGroup): string | undefined;
  mine(group: TaskGroup): MinedPair[];
}

/** Calls `visit` once for every unordered pair of distinct items, in index order. */
export function forEachPair<T>(items: readonly T[], visit: (first: T, second: T) => void): void {
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) visit(items[i] as T, items[j] as T);
  }
}

/** The reason outcome-based miners give for a task with no graded episode. */
export function noGradesReason(group: TaskGroup): string | undefined {
  if (group.episodes.some((episode) => episode.correct !== undefined)) return undefined;
  return group.hasGoldAnswer ? 'no episode of the task was graded (run collection with a grader)' : 'the task has no gold answer, so no episode was graded';
}

/** Four decimals: enough to read evidence, short enough to store with every pair. */
export function roundForEvidence(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
