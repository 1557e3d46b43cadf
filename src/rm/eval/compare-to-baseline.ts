import { deriveSeed } from '../../core/rng.js';
import { pairedClusterBootstrap } from './bootstrap-interval.js';
import type { EvaluationData, HeldOutScores, ModelEvaluation } from './evaluate-model.js';
import type { Interval } from './wilson-interval.js';

/** The two baselines every reward model is reported next to (issue 5). */
export const BASELINE_KINDS = ['plan-only', 'length-only'] as const;
export type BaselineKind = (typeof BASELINE_KINDS)[number];

/** What each baseline sees, and what a model that does not beat it has learned at most. */
export const BASELINES: Record<BaselineKind, { label: string; beyond: string }> = {
  'plan-only': { label: 'plan-only (no task features)', beyond: 'a preference among plans that ignores the task' },
  'length-only': { label: 'length-only (plan length and node count)', beyond: 'plan length and node count' },
};

export interface BaselineComparison {
  baseline: BaselineKind;
  /** Model accuracy minus baseline accuracy on the same held-out pairs. */
  accuracyDifference: number;
  /** 95% paired bootstrap interval of that difference, resampling tasks. */
  ci: Interval;
  /** True only when the whole interval is above zero. */
  beats: boolean;
  /** Best-of-N accuracy of the model minus the baseline's, per N. */
  bestOfNDifference: { n: number; difference: number }[];
  /** One plain sentence saying what the comparison shows. */
  verdict: string;
}

/**
 * Whether the model beats a baseline on held-out pairwise accuracy, by a paired bootstrap over
 * tasks (the same pairs scored by both; pairs of one task are correlated, so tasks are
 * resampled). A difference whose interval reaches zero does not count as beating: the verdict
 * then says plainly that the model has learned nothing about orchestration beyond what the
 * baseline sees.
 */
export function compareToBaseline(
  kind: BaselineKind,
  data: EvaluationData,
  scores: { model: HeldOutScores; baseline: HeldOutScores },
  evaluations: { model: ModelEvaluation; baseline: ModelEvaluation },
  options: { seed?: number } = {},
): BaselineComparison {
  const { seed = 0 } = options;
  const correctness = (heldOut: HeldOutScores) =>
    Float64Array.from(data.pairs, (_, index) => ((heldOut.winnerScores[index] as number) > (heldOut.loserScores[index] as number) ? 1 : 0));
  const { difference, ci } = pairedClusterBootstrap(
    correctness(scores.model),
    correctness(scores.baseline),
    data.pairs.map((pair) => pair.taskId),
    { seed: deriveSeed(seed, `baseline-${kind}`) },
  );
  const bestOfNDifference = evaluations.model.episodes.bestOfN.map((result) => ({
    n: result.n,
    difference: result.accuracy - (evaluations.baseline.episodes.bestOfN.find((other) => other.n === result.n)?.accuracy ?? 0),
  }));
  const beats = data.pairs.length > 0 && ci.low > 0;
  const { label, beyond } = BASELINES[kind];
  const gap = `${points(difference)} points of pairwise accuracy, 95% CI [${points(ci.low)}, ${points(ci.high)}]`;
  let verdict: string;
  if (data.pairs.length === 0) verdict = `cannot be compared with the ${label} baseline: there are no held-out pairs`;
  else if (beats) verdict = `beats the ${label} baseline (${gap})`;
  else verdict = `does NOT beat the ${label} baseline (${gap}): it has learned nothing about orchestration beyond ${beyond}`;
  return { baseline: kind, accuracyDifference: difference, ci, beats, bestOfNDifference, verdict };
}

function points(fraction: number): string {
  const value = fraction * 100;
  return `${value > 0 ? '+' : ''}${value.toFixed(1)}`;
}
