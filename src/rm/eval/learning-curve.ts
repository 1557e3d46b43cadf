import { deriveSeed, type Pair, UserError } from '../../core/index.js';
import type { BtConfigInput } from '../bt-config.js';
import type { FeaturePipelineOptions } from '../features/feature-pipeline.js';
import { trainRewardModel } from '../train-reward-model.js';
import type { TrainedRewardModel } from '../trained-reward-model.js';
import type { BestOfNResult } from './best-of-n.js';
import { scoreHeldOut, summarizeScores, type EvaluationData } from './evaluate-model.js';
import type { AccuracyEstimate } from './pairwise-accuracy.js';

/** Shares of the collection a curve trains on when none are given: halving from all of it down to 1/16. */
export const DEFAULT_CURVE_SHARES: readonly number[] = [0.0625, 0.125, 0.25, 0.5, 1];

/** How a collection was made: every sampled plan executed (`passive`), or the plans chosen by a model in rounds (`active`). */
export type CollectionKind = 'passive' | 'active';

/** One point of a learning curve: a model trained on a share of the collection's tasks, judged on the common held-out set. */
export interface LearningCurvePoint {
  collection: CollectionKind;
  /** Share of the collection's training tasks (those outside the held-out split) trained on. */
  share: number;
  /** Training tasks in the share. */
  tasks: number;
  /** Pairs of those tasks trained on (train and validation splits). */
  pairs: number;
  /** Tokens of every episode of those tasks: what collecting this share cost. */
  collectionTokens: number;
  /** Accuracy on the held-out valid-vs-valid outcome pairs (Wilson interval). */
  validVsValid: AccuracyEstimate;
  /** Best-of-N selection accuracy on the held-out episodes (bootstrap interval over tasks). */
  bestOfN: BestOfNResult;
}

export interface LearningCurveOptions {
  /** The collection these pairs came from. @default 'passive' */
  collection?: CollectionKind;
  /** Shares of the training tasks, each in (0, 1]; the tasks of a smaller share are among a larger one's. @default DEFAULT_CURVE_SHARES */
  shares?: readonly number[];
  /** Candidates per held-out task of Best-of-N. @default 8 */
  n?: number;
  /** Training configuration of every point (no bootstrap heads: the points are judged on their scores). */
  config?: BtConfigInput;
  features?: FeaturePipelineOptions;
  /** Seed of the task order, the training and the intervals. @default 0 */
  seed?: number;
  /**
   * Models already trained on a share's tasks with these settings (`config`, no bootstrap heads):
   * the curve judges such a model instead of training it again, and leaves it open for its owner.
   */
  trained?: ReadonlyMap<number, TrainedRewardModel>;
  /** Called when a point has been trained and judged. */
  onPoint?: (point: LearningCurvePoint, done: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * The order in which a learning curve takes a collection's tasks: every task outside the held-out
 * data (its episodes' and pairs' tasks), in a seeded order, so that a share is a prefix and holds
 * every smaller share.
 *
 * @example
 * curveShareTasks(curveTaskOrder(tokensByTask.keys(), heldOut, 0), 0.25)
 */
export function curveTaskOrder(taskIds: Iterable<string>, heldOut: EvaluationData, seed: number): string[] {
  const heldOutTasks = new Set([...heldOut.episodes.map((episode) => episode.taskId), ...heldOut.pairs.map((pair) => pair.taskId)]);
  return [...taskIds]
    .filter((taskId) => !heldOutTasks.has(taskId))
    .map((taskId) => ({ taskId, key: deriveSeed(seed, `curve:${taskId}`) }))
    .sort((a, b) => a.key - b.key || (a.taskId < b.taskId ? -1 : 1))
    .map((entry) => entry.taskId);
}

/** The tasks of a share of `curveTaskOrder`'s order: its first round(share x length), at least one. */
export function curveShareTasks(order: readonly string[], share: number): Set<string> {
  return new Set(order.slice(0, Math.max(1, Math.round(share * order.length))));
}

/**
 * A learning curve: trains a reward model on growing shares of a collection's training tasks
 * (a seeded order of the tasks, so each share holds the smaller ones) and judges every point on
 * the same held-out data: valid-vs-valid outcome-pair accuracy and Best-of-N accuracy on the
 * held-out episodes, each with its 95% interval, against the tokens collecting that share cost.
 * `tokensByTask` holds every collected task outside the held-out split with its episodes' tokens
 * (`collectionTokensByTask`); a task that yielded no pair still costs its tokens.
 *
 * @example
 * const curve = await learningCurve(loadTrainingPairs(store, id), loadEvaluationData(store, { datasetId: id }), collectionTokensByTask(store, id));
 */
export async function learningCurve(pairs: readonly Pair[], heldOut: EvaluationData, tokensByTask: ReadonlyMap<string, number>, options: LearningCurveOptions = {}): Promise<LearningCurvePoint[]> {
  const { collection = 'passive', shares = DEFAULT_CURVE_SHARES, n = 8, seed = 0 } = options;
  for (const share of shares) if (!(share > 0 && share <= 1)) throw new UserError(`a learning-curve share must be in (0, 1], got ${share}`);
  if (heldOut.episodes.length === 0) throw new UserError('the held-out split has no graded episodes to judge the curve on; mine from graded episodes');
  const order = curveTaskOrder(tokensByTask.keys(), heldOut, seed);
  const points: LearningCurvePoint[] = [];
  const sorted = [...new Set(shares)].sort((a, b) => a - b);
  for (const share of sorted) {
    options.signal?.throwIfAborted();
    const tasks = curveShareTasks(order, share);
    const chosen = pairs.filter((pair) => tasks.has(pair.taskId));
    if (chosen.length === 0) throw new UserError(`share ${share} of the collection (${tasks.size} tasks) has no training pairs; start the curve at a larger share`);
    const given = options.trained?.get(share);
    const model =
      given ??
      (
        await trainRewardModel(chosen, { ...options.config, ensembleSize: 0 }, {
          name: `curve:${collection}:${share}`,
          ...(options.features && { features: options.features }),
          ...(options.signal && { signal: options.signal }),
        })
      ).model;
    try {
      const evaluation = summarizeScores(model.name, heldOut, await scoreHeldOut(model, heldOut, { seed, prefixLengths: [] }), { seed, bestOfN: [n] });
      let collectionTokens = 0;
      for (const taskId of tasks) collectionTokens += tokensByTask.get(taskId) ?? 0;
      const point: LearningCurvePoint = {
        collection,
        share,
        tasks: tasks.size,
        pairs: chosen.length,
        collectionTokens,
        validVsValid: evaluation.episodes.outcomePairs.validVsValid,
        bestOfN: evaluation.episodes.bestOfN[0]!,
      };
      points.push(point);
      options.onPoint?.(point, points.length, sorted.length);
    } finally {
      if (given === undefined) model.close();
    }
  }
  return points;
}

/**
 * Where a curve flattens: the smallest share whose valid-vs-valid and Best-of-N intervals both
 * reach the largest share's accuracy less `tolerance` (so the data cannot tell it from the whole
 * collection by more than that); the largest point when no smaller one does.
 *
 * @example
 * curveFlattensAt(points)?.share // 0.25
 */
export function curveFlattensAt(points: readonly LearningCurvePoint[], tolerance = 0.01): LearningCurvePoint | undefined {
  const sorted = [...points].sort((a, b) => a.share - b.share);
  const full = sorted.at(-1);
  if (full === undefined) return undefined;
  return sorted.find((point) => point.validVsValid.ci.high >= full.validVsValid.accuracy - tolerance && point.bestOfN.ci.high >= full.bestOfN.accuracy - tolerance) ?? full;
}

/** The curve as a table for a terminal: one line per point, then where it flattens. */
export function formatLearningCurve(points: readonly LearningCurvePoint[], n: number): string {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const interval = (ci: { low: number; high: number }) => `[${percent(ci.low)}, ${percent(ci.high)}]`;
  const tokens = (value: number) => (value >= 1e6 ? `${(value / 1e6).toFixed(2)}M` : `${(value / 1e3).toFixed(1)}k`);
  const lines = [`collection  share  tasks   pairs  tokens     valid-vs-valid [95% CI]    Best-of-${n} [95% CI]`];
  for (const point of points) {
    lines.push(
      `${point.collection.padEnd(10)} ${point.share.toFixed(3).padStart(6)} ${String(point.tasks).padStart(6)} ${String(point.pairs).padStart(7)}  ${tokens(point.collectionTokens).padStart(8)}   ${percent(point.validVsValid.accuracy).padStart(6)} ${interval(point.validVsValid.ci).padEnd(18)} ${percent(point.bestOfN.accuracy).padStart(6)} ${interval(point.bestOfN.ci)}`,
    );
  }
  const flat = curveFlattensAt(points);
  if (flat !== undefined) lines.push(`flattens at share ${flat.share} (${flat.tasks} tasks, ${tokens(flat.collectionTokens)} collection tokens): its valid-vs-valid and Best-of-${n} intervals reach the largest share's accuracies less 1 point`);
  return `${lines.join('\n')}\n`;
}
