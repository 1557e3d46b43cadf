import { type Plan, SystemError } from '../core/index.js';
import type { NamedFeature } from './features/named-features.js';
import type { TrainedRewardModel } from './trained-reward-model.js';

/** One named feature's share of a score. */
export interface FeatureContribution {
  /** The encoder that made the feature, as the model's spec names it (`shape`, `words:1-2@plan`). */
  encoder: string;
  /** What the feature stands for (`plan uses=search`, `task question=who x plan uses=search`). */
  feature: string;
  /** Its signed value in the feature vector. */
  value: number;
  /** What it adds to the score. */
  contribution: number;
}

/** A score taken apart by named feature. */
export interface ScoreExplanation {
  model: string;
  head: 'linear' | 'mlp';
  /**
   * `exact` (linear head: weight x value per feature, the bias as baseline) or
   * `integrated-gradients` (MLP head: integrated gradients from the all-zero input, computed in
   * closed form; the baseline is the score of that input). Either way
   * `baseline + sum(contributions) = score` up to rounding.
   */
  method: 'exact' | 'integrated-gradients';
  score: number;
  baseline: number;
  /** Every feature with a nonzero contribution, largest absolute contribution first. */
  contributions: FeatureContribution[];
  /** Contributions summed per encoder, largest absolute sum first, with how many features each had. */
  byEncoder: { encoder: string; contribution: number; features: number }[];
  /** The plan as the model read it: its canonical text, or its diagnostic form when invalid. */
  planText: string;
}

/** What separates two plans' scores, feature by feature. */
export interface ExplanationComparison {
  /** `a.score - b.score`; equals the sum of `differences` (the baselines are the same). */
  scoreDifference: number;
  /** Per feature, a's contribution minus b's (0 where a plan lacks it), largest absolute difference first. */
  differences: { encoder: string; feature: string; a: number; b: number; difference: number }[];
}

/**
 * Explains a reward model's score of one plan for one task: the score, its baseline, and the
 * contribution of every named feature. For the linear head this is exact (contribution = weight
 * x value, baseline = bias); for the MLP head it is integrated gradients from the all-zero input
 * in closed form (see `MlpHead.attribute`), whose contributions also sum to the score minus the
 * baseline but share out interactions between features. A coordinate hit by several features
 * (a hash collision) is shared between them in proportion to their values.
 *
 * @example
 * const explanation = await explainScore(model, task.question, planText);
 * explanation.baseline + explanation.contributions.reduce((sum, entry) => sum + entry.contribution, 0) // ≈ explanation.score
 */
export async function explainScore(model: TrainedRewardModel, task: string, plan: string | Plan, options: { signal?: AbortSignal } = {}): Promise<ScoreExplanation> {
  const { pipeline, head } = model;
  const analysis = model.analyze(plan);
  if (pipeline.needsPreparation) await pipeline.prepare([task], [analysis], options.signal);
  try {
    const taskAnalysis = pipeline.analyzeTask(task);
    const count = pipeline.encode(taskAnalysis, analysis);
    const indices = pipeline.indices.slice(0, count);
    const values = pipeline.values.slice(0, count);
    const score = head.score(indices, values, 0, count);
    const weights = new Float64Array(count);
    const baseline = head.attribute(indices, values, 0, count, weights);
    const named = pipeline.explainFeatures(taskAnalysis, analysis);
    const contributions = shareCoordinates(named, indices, values, weights);
    return {
      model: model.name,
      head: head.config.kind,
      method: head.config.kind === 'linear' ? 'exact' : 'integrated-gradients',
      score,
      baseline,
      contributions: contributions.filter((entry) => entry.contribution !== 0).sort(byMagnitude((entry) => entry.contribution)),
      byEncoder: sumByEncoder(contributions),
      planText: analysis.text,
    };
  } finally {
    if (pipeline.needsPreparation) pipeline.release();
  }
}

/**
 * What separates plan a from plan b for the same task and model: per feature, a's contribution
 * minus b's. Task-only features cancel; what remains sums to the score difference.
 *
 * @example
 * compareExplanations(await explainScore(model, task, a), await explainScore(model, task, b)).differences[0]
 */
export function compareExplanations(a: ScoreExplanation, b: ScoreExplanation): ExplanationComparison {
  const rows = new Map<string, { encoder: string; feature: string; a: number; b: number; difference: number }>();
  const row = (entry: FeatureContribution) => {
    const key = `${entry.encoder}\u0000${entry.feature}`;
    let found = rows.get(key);
    if (found === undefined) rows.set(key, (found = { encoder: entry.encoder, feature: entry.feature, a: 0, b: 0, difference: 0 }));
    return found;
  };
  for (const entry of a.contributions) row(entry).a += entry.contribution;
  for (const entry of b.contributions) row(entry).b += entry.contribution;
  const differences = [...rows.values()].map((entry) => ({ ...entry, difference: entry.a - entry.b })).filter((entry) => entry.difference !== 0);
  return { scoreDifference: a.score - b.score, differences: differences.sort(byMagnitude((entry) => entry.difference)) };
}

/**
 * Each named feature's contribution: its coordinate's (weight x value), shared among the
 * features on that coordinate in proportion to their values. Checks that the named features
 * add up, coordinate by coordinate, to the encoded vector: a mismatch is a bug in an encoder's
 * `explain`, and an explanation that does not add up is refused rather than shown.
 */
function shareCoordinates(named: readonly NamedFeature[], indices: Uint32Array, values: Float32Array, weights: Float64Array): FeatureContribution[] {
  const positionOf = new Map<number, number>();
  for (let position = 0; position < indices.length; position++) positionOf.set(indices[position]!, position);
  const namedSums = new Map<number, number>();
  const largest = new Map<number, number>();
  for (const feature of named) {
    namedSums.set(feature.index, (namedSums.get(feature.index) ?? 0) + feature.value);
    largest.set(feature.index, Math.max(largest.get(feature.index) ?? 0, Math.abs(feature.value)));
  }
  for (const [index, sum] of namedSums) {
    const position = positionOf.get(index);
    const encoded = position === undefined ? 0 : values[position]!;
    // float32 storage of the encoded value, and sums taken in another order, differ by rounding only.
    if (Math.abs(encoded - sum) > 1e-5 * Math.max(1, largest.get(index)!)) {
      throw new SystemError(`explaining a score: the named features of coordinate ${index} sum to ${sum}, but the encoder wrote ${encoded}; an encoder's explain() disagrees with its encode()`);
    }
  }
  for (const index of indices) {
    if (!namedSums.has(index)) throw new SystemError(`explaining a score: coordinate ${index} was encoded but no named feature covers it; an encoder's explain() misses a feature`);
  }
  const firstOnCoordinate = new Set<number>();
  return named.map((feature) => {
    const position = positionOf.get(feature.index);
    if (position === undefined) return { encoder: feature.encoder, feature: feature.name, value: feature.value, contribution: 0 };
    const whole = weights[position]! * values[position]!;
    const sum = namedSums.get(feature.index)!;
    // A coordinate whose features nearly cancel: proportional shares would be huge and opposite, so its (tiny) whole goes to its first feature.
    const wellConditioned = Math.abs(sum) > 1e-9 * largest.get(feature.index)!;
    let contribution: number;
    if (wellConditioned) contribution = whole * (feature.value / sum);
    else contribution = firstOnCoordinate.has(feature.index) ? 0 : whole;
    firstOnCoordinate.add(feature.index);
    return { encoder: feature.encoder, feature: feature.name, value: feature.value, contribution };
  });
}

function sumByEncoder(contributions: readonly FeatureContribution[]): ScoreExplanation['byEncoder'] {
  const sums = new Map<string, { encoder: string; contribution: number; features: number }>();
  for (const entry of contributions) {
    const found = sums.get(entry.encoder) ?? { encoder: entry.encoder, contribution: 0, features: 0 };
    found.contribution += entry.contribution;
    found.features++;
    sums.set(entry.encoder, found);
  }
  return [...sums.values()].sort(byMagnitude((entry) => entry.contribution));
}

/** Largest absolute value first; ties keep their order (Array.prototype.sort is stable). */
function byMagnitude<T>(valueOf: (item: T) => number): (a: T, b: T) => number {
  return (a, b) => Math.abs(valueOf(b)) - Math.abs(valueOf(a));
}
