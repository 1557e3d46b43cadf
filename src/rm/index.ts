export * from './features/index.js';
export * from './heads/index.js';
export { Adam, type AdamSettings } from './adam.js';
export { BtConfigSchema, parseBtConfig, type BtConfig, type BtConfigInput } from './bt-config.js';
export { btTrainingKey, loadBtTrainingState, removeBtTrainingState, saveBtTrainingState, type BtTrainingState } from './bt-training-state.js';
export { accumulateBatchGradient, evaluatePairTotals, PairTotals, softplus, trainBradleyTerry, type BtTrainingResult, type BtTrainOptions, type EpochEndEvent, type EpochLog, type PairMetrics } from './bt-trainer.js';
export { compareExplanations, explainScore, type ExplanationComparison, type FeatureContribution, type ScoreExplanation } from './explain-score.js';
export { explanationMethodNote, formatExplanationComparison, formatScoreExplanation } from './format-explanation.js';
export { loadRewardModel, MODEL_FORMAT, MODEL_FORMAT_VERSION, saveRewardModel, type LoadRewardModelOptions, type SaveRewardModelOptions } from './model-file.js';
export { encodePairs, FeatureMatrixBuilder, SPLIT_CODES, splitIndices, type EncodePairsOptions, type FeatureMatrix, type PairDataset } from './pair-dataset.js';
export { readSafetensors, SafetensorsFormatError, writeSafetensors, type SafetensorsDtype, type SafetensorsFile, type SafetensorsTensor } from './safetensors.js';
export { syntheticPairs, syntheticPlan, syntheticTask, syntheticUtility, type SyntheticPairsOptions, type SyntheticTask, type SyntheticTaskKind } from './synthetic-pairs.js';
export { trainRewardModel, type CalibrationSummary, type EncoderChoice, type EncoderTrial, type RmTrainingEvent, type TrainRewardModelOptions, type TrainRewardModelResult } from './train-reward-model.js';
export { calibratedProbability, fitPlatt, type PlattCalibration } from './calibration.js';
export { COST_TARGET, tokensFromCostScore, trainCostHead, type CostFit, type CostHeadReport, type CostHeadSettings, type PlanOutcome } from './cost-head.js';
export { registerRewardModel, trainingSource, trainStoredRewardModel, worldOfRun, type StoredRmTrainingEvent, type TrainStoredRewardModelOptions, type TrainStoredRewardModelResult } from './stored-reward-model.js';
export {
  describeWorld,
  PLAN_CACHE_SIZE,
  TrainedRewardModel,
  trainingMismatch,
  TrainingSourceSchema,
  TrainingWorldSchema,
  type RewardModelProvenance,
  type TrainedRewardModelOptions,
  type TrainingSource,
  type TrainingWorld,
} from './trained-reward-model.js';
export * from './eval/index.js';
export * from './remote/index.js';
export { headDifference } from './bootstrap-heads.js';
export { DEFAULT_TEMPLATE_MARGIN, estimateReadingGain, READING_GAIN_PRICES } from './reading-gain.js';
export { MIN_ROUTER_EPISODES, ReadingGainSchema, ROUTER_L2_CANDIDATES, routerFacts, SampleSwitchingSchema, switchesPaid, TemplateRouter, TemplateRouterDataSchema, trainTemplateRouter, type ReadingGain, type SampleSwitching, type TemplateRouterData, type TemplateRouterReport } from './template-router.js';
export { replaySampleSwitches } from './sample-switching.js';
export { collectActively, type ActiveCollectOptions, type ActiveRound, type ActiveRoundEvent, type ActiveTemplates } from './active-collection.js';
