import type { RewardModel } from '../../core/reward-model.js';
import { compareToBaseline, type BaselineComparison, type BaselineKind } from './compare-to-baseline.js';
import { scoreHeldOut, summarizeScores, type EvaluateOptions, type EvaluationData, type ModelEvaluation } from './evaluate-model.js';

/** The model under test, each baseline, and how the model compares with each. */
export interface BaselineReport {
  /** Held-out data sizes. */
  data: { pairs: number; episodes: number; tasks: number };
  model: ModelEvaluation;
  baselines: { kind: BaselineKind; evaluation: ModelEvaluation }[];
  comparisons: BaselineComparison[];
  /** True when the model beats every baseline. */
  beatsBaselines: boolean;
}

/**
 * Evaluates a model and already-trained baselines the same way on the same held-out data and
 * compares them (`compareToBaseline`). `evaluateWithBaselines` trains the baselines first.
 *
 * @example
 * const report = await evaluateAgainstBaselines(model, [{ kind: 'plan-only', model: planOnly }], data, { seed: 1 });
 * if (!report.beatsBaselines) console.log(report.comparisons.map((comparison) => comparison.verdict));
 */
export async function evaluateAgainstBaselines(
  model: RewardModel,
  baselines: readonly { kind: BaselineKind; model: RewardModel }[],
  data: EvaluationData,
  options: EvaluateOptions = {},
): Promise<BaselineReport> {
  const modelScores = await scoreHeldOut(model, data, options);
  const modelEvaluation = summarizeScores(model.name, data, modelScores, options);
  const evaluated: BaselineReport['baselines'] = [];
  const comparisons: BaselineComparison[] = [];
  for (const baseline of baselines) {
    const baselineScores = await scoreHeldOut(baseline.model, data, options);
    const evaluation = summarizeScores(baseline.model.name, data, baselineScores, options);
    evaluated.push({ kind: baseline.kind, evaluation });
    comparisons.push(
      compareToBaseline(baseline.kind, data, { model: modelScores, baseline: baselineScores }, { model: modelEvaluation, baseline: evaluation }, options),
    );
  }
  const tasks = new Set([...data.pairs.map((pair) => pair.taskId), ...data.episodes.map((episode) => episode.taskId)]).size;
  return {
    data: { pairs: data.pairs.length, episodes: data.episodes.length, tasks },
    model: modelEvaluation,
    baselines: evaluated,
    comparisons,
    beatsBaselines: comparisons.every((comparison) => comparison.beats),
  };
}
