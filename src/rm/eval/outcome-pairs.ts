import { groupedAuc } from './roc-auc.js';
import { wilsonInterval } from './wilson-interval.js';
import type { AccuracyEstimate } from './pairwise-accuracy.js';

/** A held-out episode as outcome pairs need it: task, validity, grade and the model's score. */
export interface GradedScore {
  taskId: string;
  /** The plan parsed and validated. */
  valid: boolean;
  correct: boolean;
  score: number;
}

/** Which two kinds of plan an outcome pair compares. */
export type OutcomePairKind = 'validVsValid' | 'validVsInvalid';

/** One held-out outcome pair: a correct and an incorrect episode of the same task. */
export interface OutcomePairIndex {
  taskId: string;
  kind: OutcomePairKind;
  /** Indices into the episode list. */
  winner: number;
  loser: number;
}

/** Pairwise accuracy of a model on the held-out outcome pairs, split by what they compare. */
export interface OutcomePairAccuracy {
  /** Both plans valid: whether the model knows which valid plan works (the hard part). */
  validVsValid: AccuracyEstimate;
  /** A valid correct plan against an invalid one: rejecting plans that cannot run. */
  validVsInvalid: AccuracyEstimate;
  /** AUC of score vs correctness among valid plans, comparing plans of the same task only; null with one class. */
  validWithinTaskAuc: number | null;
}

/**
 * Every correct-over-incorrect pair among the held-out episodes of each task, labelled by
 * whether the incorrect side is valid (an invalid plan is always graded incorrect). These pairs
 * exist whatever sources a dataset was mined from, so label-free models are judged on them too.
 */
export function outcomePairs(episodes: readonly Pick<GradedScore, 'taskId' | 'valid' | 'correct'>[]): OutcomePairIndex[] {
  const byTask = new Map<string, number[]>();
  episodes.forEach((episode, index) => {
    const list = byTask.get(episode.taskId) ?? [];
    list.push(index);
    byTask.set(episode.taskId, list);
  });
  const pairs: OutcomePairIndex[] = [];
  for (const [taskId, indices] of byTask) {
    for (const winner of indices) {
      if (!episodes[winner]!.correct || !episodes[winner]!.valid) continue;
      for (const loser of indices) {
        if (episodes[loser]!.correct) continue;
        pairs.push({ taskId, kind: episodes[loser]!.valid ? 'validVsValid' : 'validVsInvalid', winner, loser });
      }
    }
  }
  return pairs;
}

/**
 * Strict pairwise accuracy (a tie is wrong) on the held-out outcome pairs, per kind, and the
 * within-task AUC among valid plans.
 * @example outcomePairAccuracy(scored).validVsValid.accuracy
 */
export function outcomePairAccuracy(scored: readonly GradedScore[]): OutcomePairAccuracy {
  const counts = { validVsValid: { correct: 0, total: 0, ties: 0 }, validVsInvalid: { correct: 0, total: 0, ties: 0 } };
  for (const pair of outcomePairs(scored)) {
    const winner = scored[pair.winner]!.score;
    const loser = scored[pair.loser]!.score;
    const bucket = counts[pair.kind];
    bucket.total += 1;
    if (winner > loser) bucket.correct += 1;
    else if (winner === loser) bucket.ties += 1;
  }
  const valid = scored.filter((episode) => episode.valid);
  const auc = groupedAuc(
    Float64Array.from(valid, (episode) => episode.score),
    valid.map((episode) => episode.correct),
    valid.map((episode) => episode.taskId),
  );
  return { validVsValid: estimate(counts.validVsValid), validVsInvalid: estimate(counts.validVsInvalid), validWithinTaskAuc: auc ?? null };
}

function estimate({ correct, total, ties }: { correct: number; total: number; ties: number }): AccuracyEstimate {
  return { correct, total, ties, accuracy: total === 0 ? 0 : correct / total, ci: wilsonInterval(correct, total) };
}
