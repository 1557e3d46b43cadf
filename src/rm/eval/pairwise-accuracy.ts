import { wilsonInterval, type Interval } from './wilson-interval.js';

/** A pair's two scores and where the pair came from. */
export interface ScoredPair {
  winnerScore: number;
  loserScore: number;
  source: string;
}

/** A proportion with its count and 95% Wilson interval. */
export interface AccuracyEstimate {
  /** Pairs whose winner scored strictly higher. */
  correct: number;
  total: number;
  /** Pairs whose two scores were equal (counted wrong). */
  ties: number;
  /** `correct / total`; 0 when there are no pairs. */
  accuracy: number;
  /** 95% Wilson score interval of the accuracy. */
  ci: Interval;
}

export interface PairwiseAccuracy {
  overall: AccuracyEstimate;
  /** One estimate per pair source, sources in sorted order. */
  perSource: Record<string, AccuracyEstimate>;
}

/** Whether the model ranked the pair right: strictly `>`, so a tie (or a NaN score) is wrong. */
export function rankedCorrectly(winnerScore: number, loserScore: number): boolean {
  return winnerScore > loserScore;
}

/**
 * Pairwise accuracy in the field's convention (TRL's reward-trainer accuracy, RewardBench):
 * the fraction of pairs whose winner scores strictly higher than its loser. A tie counts as
 * wrong, so a model that scores everything equal gets 0, not 0.5.
 *
 * @example
 * pairwiseAccuracy([{ winnerScore: 2, loserScore: 1, source: 'outcome' }, { winnerScore: 1, loserScore: 1, source: 'outcome' }])
 * // overall: { correct: 1, total: 2, ties: 1, accuracy: 0.5, ci: {...} }
 */
export function pairwiseAccuracy(pairs: readonly ScoredPair[]): PairwiseAccuracy {
  const counts = new Map<string, { correct: number; total: number; ties: number }>();
  const overall = { correct: 0, total: 0, ties: 0 };
  for (const { winnerScore, loserScore, source } of pairs) {
    let bucket = counts.get(source);
    if (bucket === undefined) counts.set(source, (bucket = { correct: 0, total: 0, ties: 0 }));
    const correct = rankedCorrectly(winnerScore, loserScore) ? 1 : 0;
    const tie = winnerScore === loserScore ? 1 : 0;
    for (const target of [bucket, overall]) {
      target.correct += correct;
      target.ties += tie;
      target.total += 1;
    }
  }
  const perSource: Record<string, AccuracyEstimate> = {};
  for (const source of [...counts.keys()].sort()) perSource[source] = estimate(counts.get(source)!);
  return { overall: estimate(overall), perSource };
}

function estimate({ correct, total, ties }: { correct: number; total: number; ties: number }): AccuracyEstimate {
  return { correct, total, ties, accuracy: total === 0 ? 0 : correct / total, ci: wilsonInterval(correct, total) };
}
