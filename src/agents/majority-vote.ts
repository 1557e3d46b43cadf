import { normalizeAnswer } from './normalize-answer.js';

export interface MajorityVote {
  /** Vote count per normalised answer, in first-seen order; empty answers do not vote. */
  votes: { answer: string; count: number }[];
  /** Normalised winning answer; '' when no answer voted. */
  winner: string;
  /** Index of the first answer in the winning group; -1 when no answer voted. */
  winnerIndex: number;
  /** Winner's votes over all answers (empty ones included). */
  voteShare: number;
}

/**
 * Majority vote over answers compared by {@link normalizeAnswer}. Ties go to the answer seen
 * first, as in the MAS-Orchestra self-consistency block, so the result is deterministic.
 *
 * @example
 * majorityVote(['12', '$12.0$', '13']).winner; // '12'
 */
export function majorityVote(answers: readonly string[]): MajorityVote {
  const groups = new Map<string, { count: number; firstIndex: number }>();
  answers.forEach((answer, index) => {
    const key = normalizeAnswer(answer);
    if (key === '') return;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { count: 1, firstIndex: index });
    else group.count++;
  });
  let winner = '';
  let best = { count: 0, firstIndex: -1 };
  // Map iteration is insertion order, and only a strictly larger count replaces the leader.
  for (const [key, group] of groups) {
    if (group.count > best.count) {
      winner = key;
      best = group;
    }
  }
  return {
    votes: [...groups].map(([answer, group]) => ({ answer, count: group.count })),
    winner,
    winnerIndex: best.firstIndex,
    voteShare: answers.length === 0 ? 0 : best.count / answers.length,
  };
}
