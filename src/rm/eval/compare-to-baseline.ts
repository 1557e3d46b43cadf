import { deriveSeed } from '../../core/index.js';
import { pairedClusterBootstrap } from './bootstrap-interval.js';
import type { EvaluationData, HeldOutScores, ModelEvaluation } from './evaluate-model.js';
import { outcomePairs } from './outcome-pairs.js';
import type { Interval } from './wilson-interval.js';

/** The baselines every reward model is reported next to, strongest first. */
export const BASELINE_KINDS = ['structure-only', 'plan-only', 'length-only'] as const;
export type BaselineKind = (typeof BASELINE_KINDS)[number];

/** What each baseline sees, and what a model that does not beat it has learned at most. */
export const BASELINES: Record<BaselineKind, { label: string; beyond: string }> = {
  'structure-only': {
    label: 'structure-only (no words of task or plan: blocks, edges, params, DoM, diagnostics)',
    beyond: 'a task-blind preference among plan structures',
  },
  'plan-only': { label: 'plan-only (no task features; plan text may quote the task)', beyond: 'a preference among plans that ignores the task' },
  'length-only': { label: 'length-only (plan length and node count)', beyond: 'plan length and node count' },
};

/** A paired difference of accuracies with its 95% bootstrap interval over tasks. */
export interface PairedAccuracyDifference {
  pairs: number;
  difference: number;
  ci: Interval;
}

export interface BaselineComparison {
  baseline: BaselineKind;
  /**
   * What the verdict is measured on: the held-out valid-vs-valid outcome pairs (a correct and an
   * incorrect valid plan of the same task), or, without graded episodes, the held-out mined pairs.
   */
  measuredOn: 'valid-vs-valid outcome pairs' | 'held-out pairs';
  /** Model accuracy minus baseline accuracy on those pairs. */
  accuracyDifference: number;
  /** 95% paired bootstrap interval of that difference, resampling tasks. */
  ci: Interval;
  /** True only when the whole interval is above zero. */
  beats: boolean;
  /** The same difference on every held-out mined pair (all sources), when there are any. */
  heldOutPairs?: PairedAccuracyDifference;
  /** Best-of-N accuracy of the model minus the baseline's, per N. */
  bestOfNDifference: { n: number; difference: number }[];
  /** One plain sentence saying what the comparison shows. */
  verdict: string;
}

/**
 * Whether the model beats a baseline, by a paired bootstrap over tasks (the same pairs scored by
 * both; pairs of one task are correlated, so tasks are resampled). The verdict is measured on
 * the held-out valid-vs-valid outcome pairs when graded episodes exist: telling an invalid plan
 * from a valid one is easy for any baseline and says nothing about orchestration. A difference
 * whose interval reaches zero does not count as beating.
 */
export function compareToBaseline(
  kind: BaselineKind,
  data: EvaluationData,
  scores: { model: HeldOutScores; baseline: HeldOutScores },
  evaluations: { model: ModelEvaluation; baseline: ModelEvaluation },
  options: { seed?: number } = {},
): BaselineComparison {
  const { seed = 0 } = options;
  const heldOutPairs = data.pairs.length === 0 ? undefined : minedPairsDifference(data, scores, deriveSeed(seed, `baseline-${kind}`));
  let primary: PairedAccuracyDifference | undefined = validPairsDifference(data, scores.model, scores.baseline, deriveSeed(seed, `baseline-valid-${kind}`));
  let measuredOn: BaselineComparison['measuredOn'] = 'valid-vs-valid outcome pairs';
  if (primary === undefined && heldOutPairs !== undefined) {
    primary = heldOutPairs;
    measuredOn = 'held-out pairs';
  }
  const bestOfNDifference = evaluations.model.episodes.bestOfN.map((result) => ({
    n: result.n,
    difference: result.accuracy - (evaluations.baseline.episodes.bestOfN.find((other) => other.n === result.n)?.accuracy ?? 0),
  }));
  const { label, beyond } = BASELINES[kind];
  const beats = primary !== undefined && primary.ci.low > 0;
  let verdict: string;
  if (primary === undefined) verdict = `cannot be compared with the ${label} baseline: there are no held-out pairs`;
  else {
    const gap = `${points(primary.difference)} points of pairwise accuracy on ${primary.pairs} ${measuredOn}, 95% CI [${points(primary.ci.low)}, ${points(primary.ci.high)}]`;
    verdict = beats ? `beats the ${label} baseline (${gap})` : `does NOT beat the ${label} baseline (${gap}): it has learned nothing about orchestration beyond ${beyond}`;
  }
  return {
    baseline: kind,
    measuredOn,
    accuracyDifference: primary?.difference ?? 0,
    ci: primary?.ci ?? { low: 0, high: 0 },
    beats,
    ...(heldOutPairs !== undefined && { heldOutPairs }),
    bestOfNDifference,
    verdict,
  };
}

/**
 * Accuracy of model a minus model b on the held-out valid-vs-valid outcome pairs (both scored on
 * the same episodes), with a 95% paired bootstrap over tasks; undefined when there are none.
 * @example validPairsDifference(data, await scoreHeldOut(labelFree, data), await scoreHeldOut(outcomeOnly, data), 0)
 */
export function validPairsDifference(data: EvaluationData, a: HeldOutScores, b: HeldOutScores, seed: number): PairedAccuracyDifference | undefined {
  const validPairs = outcomePairs(data.episodes).filter((pair) => pair.kind === 'validVsValid');
  if (validPairs.length === 0) return undefined;
  const correct = (heldOut: HeldOutScores) =>
    Float64Array.from(validPairs, (pair) => ((heldOut.episodeScores[pair.winner] as number) > (heldOut.episodeScores[pair.loser] as number) ? 1 : 0));
  const { difference, ci } = pairedClusterBootstrap(correct(a), correct(b), validPairs.map((pair) => pair.taskId), { seed });
  return { pairs: validPairs.length, difference, ci };
}

function minedPairsDifference(data: EvaluationData, scores: { model: HeldOutScores; baseline: HeldOutScores }, seed: number): PairedAccuracyDifference {
  const correctness = (heldOut: HeldOutScores) =>
    Float64Array.from(data.pairs, (_, index) => ((heldOut.winnerScores[index] as number) > (heldOut.loserScores[index] as number) ? 1 : 0));
  const { difference, ci } = pairedClusterBootstrap(correctness(scores.model), correctness(scores.baseline), data.pairs.map((pair) => pair.taskId), { seed });
  return { pairs: data.pairs.length, difference, ci };
}

function points(fraction: number): string {
  const value = fraction * 100;
  return `${value > 0 ? '+' : ''}${value.toFixed(1)}`;
}
