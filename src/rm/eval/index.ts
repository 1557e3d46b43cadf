export { ablateSources, formatAblationReport, MAX_ABLATION_SOURCES, type AblateSourcesOptions, type AblationReport, type AblationRow } from './ablate-sources.js';
export { bestOfNAccuracy, type BestOfNAccuracyOptions, type BestOfNResult, type ScoredOutcome } from './best-of-n.js';
export { bootstrapMeanInterval, pairedClusterBootstrap, type BootstrapOptions } from './bootstrap-interval.js';
export { expectedCalibrationError, probabilityCalibrationError, type CalibrationBin, type CalibrationReport } from './calibration-error.js';
export { sigmoid } from '../../core/index.js';
export { BASELINE_KINDS, BASELINES, compareToBaseline, validPairsDifference, type BaselineComparison, type BaselineKind, type PairedAccuracyDifference } from './compare-to-baseline.js';
export { outcomePairAccuracy, outcomePairs, type GradedScore, type OutcomePairAccuracy, type OutcomePairIndex, type OutcomePairKind } from './outcome-pairs.js';
export { evaluateAgainstBaselines, type BaselineReport, type ModelVersusBaselines } from './evaluate-against-baselines.js';
export {
  evaluateRewardModel,
  scoreHeldOut,
  summarizeScores,
  supportsPrefixes,
  type EvaluateOptions,
  type EvaluationData,
  type HeldOutEpisode,
  type HeldOutScores,
  type ModelEvaluation,
  type PrefixPredictiveness,
  type PrefixScoringModel,
} from './evaluate-model.js';
export { baselineEncoder, evaluateWithBaselines, type BaselineEpochEndEvent, type EvaluateWithBaselinesOptions } from './evaluate-with-baselines.js';
export { formatBaselineReport } from './format-baseline-report.js';
export { collectionTokenSplitsByTask, collectionTokensByTask, loadEvaluationData, loadPairs, loadPlanOutcomes, loadTaskTexts, loadTrainingPairs, resolvePairDataset, taskTokenTotals, type TaskText, type TaskTokenSplit } from './load-evaluation-data.js';
export { curveFlattensAt, curveShareTasks, curveTaskOrder, DEFAULT_CURVE_SHARES, formatLearningCurve, learningCurve, type CollectionKind, type LearningCurveOptions, type LearningCurvePoint } from './learning-curve.js';
export { pairwiseAccuracy, rankedCorrectly, type AccuracyEstimate, type PairwiseAccuracy, type ScoredPair } from './pairwise-accuracy.js';
export { groupedAuc, rocAuc } from './roc-auc.js';
export { meanInterval } from './mean-interval.js';
export { MIN_VERDICT_PAIRS, MIN_VERDICT_TASKS, TOO_FEW_TO_JUDGE, tooFewToJudge } from './verdict-sample-size.js';
export { wilsonInterval, Z_95, type Interval } from './wilson-interval.js';
