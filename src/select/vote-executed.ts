import { majorityVote } from '../agents/index.js';
import type { Episode } from '../core/index.js';

/** The answer a set of executions settles on, and whether it is correct. */
export interface VoteOutcome {
  /** Position in `indices` of the episode whose answer won; undefined when nothing answered. */
  chosen: number | undefined;
  correct: boolean;
}

/**
 * Majority vote over the final answers of executed candidates, in the order given (the order
 * breaks ties: the answer seen first wins, as self-consistency votes). Episodes that reached no
 * answer (invalid plans, failed runs) do not vote; when none answered the vote is wrong. The
 * winning answer is graded by the episode that first gave it: equal normalised answers get
 * equal grades under the exact-match grader.
 *
 * @example
 * voteExecuted([3, 1], episodes) // votes episodes[3] then episodes[1]
 */
export function voteExecuted(indices: readonly number[], episodes: ReadonlyMap<number, Episode>): VoteOutcome {
  const answers = indices.map((index) => episodes.get(index)?.finalAnswer ?? '');
  const vote = majorityVote(answers);
  if (vote.winnerIndex < 0) return { chosen: undefined, correct: false };
  const chosen = indices[vote.winnerIndex];
  return { chosen, correct: chosen !== undefined && isCorrect(episodes.get(chosen)) };
}

/** An episode counts as correct only when it was graded correct. */
export function isCorrect(episode: Episode | undefined): boolean {
  return episode?.grade?.correct === true;
}

/**
 * Candidate indices by descending score; equal scores keep sample order, which is as good as a
 * random tie-break because the N plans are exchangeable samples.
 */
export function rankByScore(scores: readonly number[], n: number): number[] {
  return rankCandidates(scores, Array.from({ length: n }, (_, index) => index));
}

/** The given pool indices by descending score; equal scores keep the given order. */
export function rankCandidates(scores: readonly number[], indices: readonly number[]): number[] {
  const order = [...indices];
  // NaN ranks last: a model that cannot score a plan should not select it.
  const key = (index: number) => {
    const score = scores[index] ?? Number.NEGATIVE_INFINITY;
    return Number.isNaN(score) ? Number.NEGATIVE_INFINITY : score;
  };
  const position = new Map(indices.map((index, at) => [index, at]));
  return order.sort((a, b) => key(b) - key(a) || position.get(a)! - position.get(b)!);
}
