import type { RewardModel } from '../../core/index.js';
import { compareToBaseline, type BaselineComparison, type BaselineKind } from './compare-to-baseline.js';
import { scoreHeldOut, summarizeScores, type EvaluateOptions, type EvaluationData, type ModelEvaluation } from './evaluate-model.js';

/** One model under test, with how it compares with each baseline. */
export interface ModelVersusBaselines {
  evaluation: ModelEvaluation;
  comparisons: BaselineComparison[];
  /** True when the model beats every baseline. */
  beatsBaselines: boolean;
}

/** Models under test and baselines, evaluated the same way on the same held-out data. */
export interface BaselineReport {
  /** Held-out data sizes. */
  data: { pairs: number; episodes: number; tasks: number };
  models: ModelVersusBaselines[];
  baselines: { kind: BaselineKind; evaluation: ModelEvaluation }[];
}

/**
 * Evaluates models and already-trained baselines the same way on the same held-out data and
 * compares each model with each baseline (`compareToBaseline`). Every model is scored once.
 * `evaluateWithBaselines` trains the baselines first.
 *
 * @example
 * const report = await evaluateAgainstBaselines([model], [{ kind: 'plan-only', model: planOnly }], data, { seed: 1 });
 * for (const { comparisons } of report.models) console.log(comparisons.map((comparison) => comparison.verdict));
 */
export async function evaluateAgainstBaselines(
  models: readonly RewardModel[],
  baselines: readonly { kind: BaselineKind; model: RewardModel }[],
  data: EvaluationData,
  options: EvaluateOptions = {},
): Promise<BaselineReport> {
  const baselineResults = [];
  for (const baseline of baselines) {
    const scores = await scoreHeldOut(baseline.model, data, options);
    baselineResults.push({ kind: baseline.kind, scores, evaluation: summarizeScores(baseline.model.name, data, scores, options) });
  }
  const results: ModelVersusBaselines[] = [];
  for (const model of models) {
    const scores = await scoreHeldOut(model, data, options);
    const evaluation = summarizeScores(model.name, data, scores, options);
    const comparisons = baselineResults.map((baseline) =>
      compareToBaseline(baseline.kind, data, { model: scores, baseline: baseline.scores }, { model: evaluation, baseline: baseline.evaluation }, options),
    );
    results.push({ evaluation, comparisons, beatsBaselines: comparisons.every((comparison) => comparison.beats) });
  }
  const tasks = new Set([...data.pairs.map((pair) => pair.taskId), ...data.episodes.map((episode) => episode.taskId)]).size;
  return {
    data: { pairs: data.pairs.length, episodes: data.episodes.length, tasks },
    models: results,
    baselines: baselineResults.map(({ kind, evaluation }) => ({ kind, evaluation })),
  };
}
