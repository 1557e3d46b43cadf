import type { Pair, Plan, RewardModel } from '../../core/index.js';
import { bestOfNAccuracy, type BestOfNResult } from './best-of-n.js';
import { expectedCalibrationError, type CalibrationReport } from './calibration-error.js';
import { pairwiseAccuracy, type PairwiseAccuracy } from './pairwise-accuracy.js';
import { outcomePairAccuracy, type OutcomePairAccuracy } from './outcome-pairs.js';
import { groupedAuc, rocAuc } from './roc-auc.js';
import { scoreGrouped, scoreWith } from './score-grouped.js';

/** An executed plan of a held-out task with its graded outcome. */
export interface HeldOutEpisode {
  id: string;
  taskId: string;
  question: string;
  planText: string;
  correct: boolean;
  /** The plan parsed and validated (an invalid plan runs nothing and is graded incorrect). */
  valid: boolean;
}

/** Held-out data: pairs and graded episodes of test-split tasks only. */
export interface EvaluationData {
  pairs: readonly Pair[];
  episodes: readonly HeldOutEpisode[];
}

/** A reward model that can also score the first `k` nodes of a plan (dense, early scores), as `TrainedRewardModel`. */
export interface PrefixScoringModel extends RewardModel {
  scorePrefix(task: string, plan: string | Plan, k: number, options?: { signal?: AbortSignal }): Promise<number>;
}

export interface EvaluateOptions {
  /** Candidate counts for Best-of-N. @default [2, 4, 8] */
  bestOfN?: readonly number[];
  /** @see BestOfNAccuracyOptions.subsetsPerTask @default 100 */
  subsetsPerTask?: number;
  /** Seed of subset draws, tie-breaks and bootstraps. @default 0 */
  seed?: number;
  /** Bins of the calibration error. @default 10 */
  calibrationBins?: number;
  /** Prefix lengths k scored when the model supports prefixes. @default [1, 2, 3, 4] */
  prefixLengths?: readonly number[];
  signal?: AbortSignal;
}

/** How well prefix scores of the first `k` nodes already predict the outcome. */
export interface PrefixPredictiveness {
  k: number;
  /** AUC of the prefix score vs correctness over all held-out episodes; null with one class. */
  auc: number | null;
  /** The same, comparing plans of the same task only. */
  withinTaskAuc: number | null;
}

/** Everything measured for one model on one held-out set. */
export interface ModelEvaluation {
  model: string;
  pairs: {
    count: number;
    accuracy: PairwiseAccuracy;
    calibration: CalibrationReport;
  };
  episodes: {
    count: number;
    tasks: number;
    /** Fraction of held-out episodes that were correct. */
    correctRate: number;
    /** AUC of score vs correctness, pooled over tasks (null with one class). */
    auc: number | null;
    /** AUC comparing plans of the same task only: what selection needs. */
    withinTaskAuc: number | null;
    /** Every correct-over-incorrect pair of the held-out episodes, split into valid-vs-valid and valid-vs-invalid. */
    outcomePairs: OutcomePairAccuracy;
    bestOfN: BestOfNResult[];
  };
  /** Present when the model scores prefixes. */
  prefix?: PrefixPredictiveness[];
}

/** A model's scores on held-out data, in the order of `data.pairs` and `data.episodes`. */
export interface HeldOutScores {
  winnerScores: Float64Array;
  loserScores: Float64Array;
  episodeScores: Float64Array;
  /** Episode scores of the first k nodes, per k, when the model scores prefixes. */
  prefixScores?: Map<number, Float64Array>;
}

/**
 * Scores the held-out pairs and episodes with `model` and computes every metric: pairwise
 * accuracy (strict, per source, Wilson CIs) and calibration on pairs; AUC, outcome-pair accuracy
 * (valid-vs-valid and valid-vs-invalid) and Best-of-N selection accuracy on episodes; prefix predictiveness by k when the model has `scorePrefix`.
 *
 * @example
 * const evaluation = await evaluateRewardModel(model, { pairs: testPairs, episodes: testEpisodes }, { seed: 1 });
 * evaluation.episodes.bestOfN.find((result) => result.n === 8)?.accuracy;
 */
export async function evaluateRewardModel(model: RewardModel, data: EvaluationData, options: EvaluateOptions = {}): Promise<ModelEvaluation> {
  return summarizeScores(model.name, data, await scoreHeldOut(model, data, options), options);
}

/** Scores every held-out plan once per task (and every prefix when supported). */
export async function scoreHeldOut(model: RewardModel, data: EvaluationData, options: EvaluateOptions = {}): Promise<HeldOutScores> {
  const { prefixLengths = [1, 2, 3, 4], signal } = options;
  const pairItems = data.pairs.flatMap((pair) => [
    { question: pair.question, planText: pair.winner.planText },
    { question: pair.question, planText: pair.loser.planText },
  ]);
  const pairScores = await scoreGrouped(pairItems, scoreWith(model, signal), model.name);
  const winnerScores = new Float64Array(data.pairs.length);
  const loserScores = new Float64Array(data.pairs.length);
  for (let index = 0; index < data.pairs.length; index++) {
    winnerScores[index] = pairScores[2 * index] as number;
    loserScores[index] = pairScores[2 * index + 1] as number;
  }
  const scores: HeldOutScores = { winnerScores, loserScores, episodeScores: await scoreGrouped(data.episodes, scoreWith(model, signal), model.name) };
  if (supportsPrefixes(model)) {
    scores.prefixScores = new Map();
    for (const k of prefixLengths) {
      signal?.throwIfAborted();
      const scorePrefixes = (question: string, plans: readonly string[]) => Promise.all(plans.map((plan) => model.scorePrefix(question, plan, k, signal ? { signal } : {})));
      scores.prefixScores.set(k, await scoreGrouped(data.episodes, scorePrefixes, model.name));
    }
  }
  return scores;
}

/** Every metric from scores already computed (so several models can share one scoring pass each). */
export function summarizeScores(modelName: string, data: EvaluationData, scores: HeldOutScores, options: EvaluateOptions = {}): ModelEvaluation {
  const { bestOfN = [2, 4, 8], subsetsPerTask = 100, seed = 0, calibrationBins = 10 } = options;
  const { winnerScores, loserScores, episodeScores } = scores;
  const accuracy = pairwiseAccuracy(
    data.pairs.map((pair, index) => ({ winnerScore: winnerScores[index] as number, loserScore: loserScores[index] as number, source: pair.source })),
  );
  const labels = data.episodes.map((episode) => episode.correct);
  const taskIds = data.episodes.map((episode) => episode.taskId);
  const outcomes = data.episodes.map((episode, index) => ({ taskId: episode.taskId, score: episodeScores[index] as number, correct: episode.correct }));
  const evaluation: ModelEvaluation = {
    model: modelName,
    pairs: { count: data.pairs.length, accuracy, calibration: expectedCalibrationError(winnerScores, loserScores, { bins: calibrationBins }) },
    episodes: {
      count: data.episodes.length,
      tasks: new Set(taskIds).size,
      correctRate: data.episodes.length === 0 ? 0 : labels.filter(Boolean).length / data.episodes.length,
      auc: rocAuc(episodeScores, labels) ?? null,
      withinTaskAuc: groupedAuc(episodeScores, labels, taskIds) ?? null,
      outcomePairs: outcomePairAccuracy(data.episodes.map((episode, index) => ({ taskId: episode.taskId, valid: episode.valid, correct: episode.correct, score: episodeScores[index] as number }))),
      bestOfN: bestOfN.map((n) => bestOfNAccuracy(outcomes, n, { subsetsPerTask, seed })),
    },
  };
  if (scores.prefixScores) {
    evaluation.prefix = [...scores.prefixScores].map(([k, prefixScores]) => ({
      k,
      auc: rocAuc(prefixScores, labels) ?? null,
      withinTaskAuc: groupedAuc(prefixScores, labels, taskIds) ?? null,
    }));
  }
  return evaluation;
}

/** Whether a model can score plan prefixes. */
export function supportsPrefixes(model: RewardModel): model is PrefixScoringModel {
  return typeof (model as Partial<PrefixScoringModel>).scorePrefix === 'function';
}
