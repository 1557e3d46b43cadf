import { deriveSeed, Rng } from '../../core/index.js';
import { bootstrapMeanInterval } from './bootstrap-interval.js';
import type { Interval } from './wilson-interval.js';

/** One executed plan of a held-out task: the model's score and whether execution was correct. */
export interface ScoredOutcome {
  taskId: string;
  score: number;
  correct: boolean;
}

export interface BestOfNAccuracyOptions {
  /**
   * Subsets of size N per task. A task with at most this many distinct subsets has all of them
   * evaluated (an exact average); otherwise this many are drawn at random. @default 100
   */
  subsetsPerTask?: number;
  /** Seed of the subset draws, the tie-breaking order and the bootstrap. @default 0 */
  seed?: number;
}

export interface BestOfNResult {
  n: number;
  /** Tasks with at least N episodes (the others cannot be evaluated at this N). */
  tasks: number;
  /** Tasks with fewer than N episodes, left out. */
  skippedTasks: number;
  /** Subsets evaluated over all tasks. */
  subsets: number;
  /** Mean over tasks of the fraction of subsets whose top-scored plan was correct. */
  accuracy: number;
  /** 95% bootstrap interval over tasks. */
  ci: Interval;
  /** Expected accuracy of picking one plan of the subset at random (what selection must beat). */
  randomAccuracy: number;
  /** Fraction of subsets with at least one correct plan (the ceiling of any selector). */
  oracleAccuracy: number;
  /** Fraction of subsets where several plans shared the top score and the tie-break decided. */
  tieRate: number;
}

/**
 * Best-of-N selection accuracy on held-out episodes: for each task, draw N of its executed
 * plans, keep the one the model scores highest, and count whether its execution was correct;
 * averaged over many subsets per task, then over tasks (each task weighs the same).
 * Ties go to a fixed random order of the task's plans (seeded, so the result is reproducible
 * and a tie is credited no more often than chance); `tieRate` says how often that happened.
 *
 * @example
 * bestOfNAccuracy(outcomes, 4, { seed: 1 }).accuracy
 */
export function bestOfNAccuracy(outcomes: readonly ScoredOutcome[], n: number, options: BestOfNAccuracyOptions = {}): BestOfNResult {
  const { subsetsPerTask = 100, seed = 0 } = options;
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`N must be a positive integer, got ${n}`);
  const byTask = new Map<string, ScoredOutcome[]>();
  for (const outcome of outcomes) {
    let list = byTask.get(outcome.taskId);
    if (list === undefined) byTask.set(outcome.taskId, (list = []));
    list.push(outcome);
  }
  const taskAccuracies: number[] = [];
  let skippedTasks = 0;
  let subsets = 0;
  let randomSum = 0;
  let oracleHits = 0;
  let ties = 0;
  for (const [taskId, episodes] of [...byTask.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (episodes.length < n) {
      skippedTasks++;
      continue;
    }
    const rng = new Rng(deriveSeed(seed, taskId));
    // Lower rank wins a tie: a random but fixed order of this task's plans.
    const tieRank = new Uint32Array(episodes.length);
    rng.shuffle(episodes.map((_, index) => index)).forEach((episode, rank) => (tieRank[episode] = rank));
    let hits = 0;
    let taskSubsets = 0;
    for (const subset of subsetsOf(episodes.length, n, subsetsPerTask, rng)) {
      let best = subset[0] as number;
      let tied = false;
      let correctInSubset = 0;
      for (const index of subset) {
        const episode = episodes[index] as ScoredOutcome;
        if (episode.correct) correctInSubset++;
        const bestScore = (episodes[best] as ScoredOutcome).score;
        if (index === best) continue;
        if (episode.score > bestScore) {
          best = index;
          tied = false;
        } else if (episode.score === bestScore) {
          tied = true;
          if ((tieRank[index] as number) < (tieRank[best] as number)) best = index;
        }
      }
      if ((episodes[best] as ScoredOutcome).correct) hits++;
      if (tied) ties++;
      if (correctInSubset > 0) oracleHits++;
      randomSum += correctInSubset / n;
      taskSubsets++;
    }
    subsets += taskSubsets;
    taskAccuracies.push(hits / taskSubsets);
  }
  const tasks = taskAccuracies.length;
  return {
    n,
    tasks,
    skippedTasks,
    subsets,
    accuracy: tasks === 0 ? 0 : taskAccuracies.reduce((sum, value) => sum + value, 0) / tasks,
    ci: bootstrapMeanInterval(taskAccuracies, { seed: deriveSeed(seed, `bon-${n}`) }),
    randomAccuracy: subsets === 0 ? 0 : randomSum / subsets,
    oracleAccuracy: subsets === 0 ? 0 : oracleHits / subsets,
    tieRate: subsets === 0 ? 0 : ties / subsets,
  };
}

/** Every size-`size` subset of 0..count-1 when there are at most `limit`, else `limit` random ones. */
function* subsetsOf(count: number, size: number, limit: number, rng: Rng): Generator<number[]> {
  if (binomialAtMost(count, size, limit)) {
    yield* combinations(count, size);
    return;
  }
  const pool = Array.from({ length: count }, (_, index) => index);
  for (let draw = 0; draw < limit; draw++) {
    // Partial Fisher-Yates: the first `size` slots become a uniform random subset.
    for (let slot = 0; slot < size; slot++) {
      const pick = slot + Math.floor(rng.next() * (count - slot));
      [pool[slot], pool[pick]] = [pool[pick] as number, pool[slot] as number];
    }
    yield pool.slice(0, size);
  }
}

/** Whether C(count, size) <= limit, without overflowing on large counts. */
function binomialAtMost(count: number, size: number, limit: number): boolean {
  let value = 1;
  for (let step = 1; step <= size; step++) {
    value = (value * (count - size + step)) / step;
    if (value > limit) return false;
  }
  return true;
}

/** Subsets in lexicographic order. */
function* combinations(count: number, size: number): Generator<number[]> {
  const indices = Array.from({ length: size }, (_, index) => index);
  while (true) {
    yield indices.slice();
    let position = size - 1;
    while (position >= 0 && indices[position] === count - size + position) position--;
    if (position < 0) return;
    indices[position]! += 1;
    for (let next = position + 1; next < size; next++) indices[next] = (indices[next - 1] as number) + 1;
  }
}
