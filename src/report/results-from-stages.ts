import type { PairStats } from '../pairs/index.js';
import type { AccuracyEstimate, BaselineComparison, BaselineReport, LearningCurvePoint, ModelEvaluation } from '../rm/index.js';
import type { BestOfNRun, BonTable, SwitchingSummary } from '../select/index.js';
import type { GrpoResult } from '../train/index.js';
import { UserError } from '../core/index.js';
import type { BonTableResult, DemoResults, GrpoRunResult, IntervalTuple, LearningCurvePointResult, RmResults, SwitchingRow, TaskPicks } from './results-schema.js';

/**
 * Adapters from what each stage returns to the sections of results.json, so `orchrm demo`
 * fills the file from the real outputs instead of re-deriving numbers. Types only cross here:
 * nothing is recomputed.
 */

/** The reward-model evaluation's `{low, high}` as results.json's `[low, high]`. */
export function intervalTuple(interval: { low: number; high: number }): IntervalTuple {
  return [interval.low, interval.high];
}

/**
 * The `rm` section from `evaluateWithBaselines` (or `evaluateAgainstBaselines`): the model at
 * `modelIndex` and both baselines with the model's comparison against each.
 *
 * @example
 * results.rm = rmResultsFromReport(await evaluateWithBaselines([model], heldOut, options), { file: 'rm.safetensors' });
 */
export function rmResultsFromReport(report: BaselineReport, options: { modelIndex?: number; file?: string } = {}): RmResults {
  const { modelIndex = 0, file } = options;
  const model = report.models[modelIndex];
  if (model === undefined) throw new UserError(`the reward-model report has ${report.models.length} models; there is no model ${modelIndex}`);
  const baselines: RmResults['baselines'] = {};
  for (const baseline of report.baselines) {
    const comparison = model.comparisons.find((entry) => entry.baseline === baseline.kind);
    if (comparison === undefined) continue;
    baselines[baseline.kind] = {
      ...metrics(baseline.evaluation),
      difference: { diff: comparison.accuracyDifference, ci: intervalTuple(comparison.ci), measuredOn: comparison.measuredOn, ...(pairsOf(comparison) !== undefined && { pairs: pairsOf(comparison) }) },
      beats: comparison.beats,
      verdict: comparison.verdict,
    };
  }
  return { model: model.evaluation.model, ...(file === undefined ? {} : { file }), heldOut: report.data, ...metrics(model.evaluation), baselines };
}

/** How many pairs a baseline comparison was measured on. */
function pairsOf(comparison: BaselineComparison): number | undefined {
  return comparison.measuredOn === 'held-out pairs' ? comparison.heldOutPairs?.pairs : undefined;
}

/** The held-out outcome-pair accuracies of an evaluation, in results.json's form. */
export function outcomePairsResult(evaluation: ModelEvaluation): NonNullable<RmResults['outcomePairs']> {
  const { validVsValid, validVsInvalid, validWithinTaskAuc } = evaluation.episodes.outcomePairs;
  return { validVsValid: estimate(validVsValid), validVsInvalid: estimate(validVsInvalid), validWithinTaskAuc };
}

function metrics(evaluation: ModelEvaluation): Pick<RmResults, 'pairAccuracy' | 'calibration' | 'auc' | 'withinTaskAuc' | 'bon' | 'outcomePairs'> {
  const { accuracy, calibration } = evaluation.pairs;
  return {
    outcomePairs: outcomePairsResult(evaluation),
    pairAccuracy: {
      overall: estimate(accuracy.overall),
      perSource: Object.fromEntries(Object.entries(accuracy.perSource).map(([source, value]) => [source, estimate(value)])),
    },
    calibration: { ece: calibration.ece, bins: calibration.bins.map((bin) => ({ ...bin })) },
    auc: evaluation.episodes.auc,
    withinTaskAuc: evaluation.episodes.withinTaskAuc,
    bon: evaluation.episodes.bestOfN.map((result) => ({
      n: result.n,
      accuracy: result.accuracy,
      ci: intervalTuple(result.ci),
      randomAccuracy: result.randomAccuracy,
      oracleAccuracy: result.oracleAccuracy,
      tasks: result.tasks,
      tieRate: result.tieRate,
    })),
  };
}

function estimate(value: AccuracyEstimate) {
  return { accuracy: value.accuracy, ci: intervalTuple(value.ci), correct: value.correct, total: value.total, ties: value.ties };
}

/** The `pairs` section from `pairStats`: count per source and the share of differing graded pairs the winner got right. */
export function pairSourcesFromStats(stats: PairStats): DemoResults['pairs'] {
  const pairs: DemoResults['pairs'] = {};
  for (const [source, { pairs: count }] of Object.entries(stats.bySource)) {
    const agreement = stats.agreementWithOutcome[source];
    pairs[source] =
      agreement === undefined
        ? { count, agreementWithOutcome: null }
        : { count, agreementWithOutcome: agreement.strictlyBetter, differing: agreement.differing, atLeastAsGood: agreement.atLeastAsGood };
  }
  return pairs;
}

/** One GRPO run from `trainGrpo`/`runGrpo`: final accuracy is the last held-out evaluation's. */
export function grpoRunFromResult(result: GrpoResult<unknown> & { from?: { name: string } }): GrpoRunResult {
  const last = result.evaluations.at(-1);
  if (last === undefined) throw new UserError('the GRPO run has no held-out evaluation; run it with evaluation enabled (evalTasks > 0)');
  const finalTokens = result.history.at(-1)?.tokens ?? last.trainingTokens;
  return {
    ...(result.from === undefined ? {} : { from: result.from.name }),
    steps: result.config.steps,
    accuracy: last.accuracy,
    trainingTokens: { ...finalTokens },
    evaluationTokens: result.evaluationTokens,
    curve: result.evaluations.map((point) => ({ step: point.step, accuracy: point.accuracy, trainingTokens: { ...point.trainingTokens }, episodes: point.episodes })),
  };
}

/** The `bon` section from `summarizeBestOfN`: the table at `headlineN` plus every N for the curves. */
export function bonResultsFromTables(tables: readonly BonTable[], headlineN: number): DemoResults['bon'] {
  const headline = tables.find((table) => table.n === headlineN);
  if (headline === undefined) throw new UserError(`Best-of-N was not run at N = ${headlineN} (ran ${tables.map((table) => table.n).join(', ')})`);
  return { ...bonTable(headline), perN: tables.map(bonTable) };
}

function bonTable(table: BonTable): BonTableResult {
  const strategies: BonTableResult['strategies'] = {};
  for (const [name, summary] of Object.entries(table.strategies)) if (summary !== undefined) strategies[name] = { ...summary, tokens: { ...summary.tokens } };
  return { n: table.n, tasks: table.tasks, strategies, paired: { ...table.paired }, ...(table.bestFixed !== undefined && { bestFixed: table.bestFixed }) };
}

/**
 * `bon.picks`: per task at N = `n`, what each strategy picked and whether it was right, and each
 * fixed template's outcome, in task order of the run.
 */
export function bonPicksFromRun(run: Pick<BestOfNRun, 'outcomes'>, n: number): TaskPicks[] {
  const byTask = new Map<string, TaskPicks>();
  for (const outcome of run.outcomes) {
    if (outcome.n !== n) continue;
    let entry = byTask.get(outcome.taskId);
    if (entry === undefined) byTask.set(outcome.taskId, (entry = { taskId: outcome.taskId, suite: outcome.suite, strategies: {}, fixed: {} }));
    if (outcome.strategy.startsWith('fixed:')) entry.fixed[outcome.strategy.slice('fixed:'.length)] = outcome.correct;
    else entry.strategies[outcome.strategy] = { correct: outcome.correct, ...(outcome.pick !== undefined && { pick: { ...outcome.pick } }) };
  }
  return [...byTask.values()];
}

/** The switching rows of one family at N = `n`, in results.json's form. */
export function switchingRowsOf(switching: readonly SwitchingSummary[], suite: string, n: number): SwitchingRow[] {
  return switching
    .filter((row) => row.suite === suite && row.n === n)
    .map(({ strategy, bestFixed, tasks, switched, wins, losses, kinds }) => ({ strategy, bestFixed, tasks, switched, wins, losses, kinds: { ...kinds } }));
}

/**
 * A learning-curve point of `learningCurve` (src/rm/eval) as results.json records it.
 *
 * @example
 * results.learningCurve.points = curve.map(learningCurvePointResult);
 */
export function learningCurvePointResult(point: LearningCurvePoint): LearningCurvePointResult {
  const { bestOfN } = point;
  return {
    collection: point.collection,
    share: point.share,
    tasks: point.tasks,
    pairs: point.pairs,
    collectionTokens: point.collectionTokens,
    validVsValid: estimate(point.validVsValid),
    bestOfN: { accuracy: bestOfN.accuracy, ci: intervalTuple(bestOfN.ci), randomAccuracy: bestOfN.randomAccuracy, oracleAccuracy: bestOfN.oracleAccuracy, tasks: bestOfN.tasks },
  };
}
