export { saveCheckpointToStore, listStoredCheckpoints, type StoredCheckpoint } from './checkpoint-store.js';
export { clippedSurrogate, klK3, type KlTerm, type SurrogateTerm } from './clipped-objective.js';
export { createExecutionReward, createPlanExecutor, type ExecutionRewardOptions, type PlanExecutor, type RewardEpisodeEndEvent } from './execution-reward.js';
export { groupAdvantages } from './group-advantages.js';
export { GrpoConfigSchema, parseGrpoConfig, type GrpoConfig, type GrpoConfigInput } from './grpo-config.js';
export {
  trainGrpo,
  type EvaluationPoint,
  type GrpoResult,
  type GrpoStepEndEvent,
  type GrpoStepLog,
  type GrpoTrainerOptions,
  type HeldOutEvaluation,
  type TrainingTokens,
} from './grpo-trainer.js';
export { createHybridReward, type HybridRewardOptions } from './hybrid-reward.js';
export { createJudgeReward, type JudgeRewardOptions } from './judge-reward.js';
export type { PlanReward, RewardContext, RewardGroup, RewardRequestPlan, RewardSource } from './reward-source.js';
export { createRmReward } from './rm-reward.js';
export { grpoRunKey, grpoStateFile, removeGrpoState, type CheckpointCodec, type GrpoResumeState, type GrpoRunState } from './grpo-resume-state.js';
export {
  GrpoEvaluationSchema,
  NoTrainablePolicyError,
  runGrpo,
  RunGrpoSettingsSchema,
  type GrpoEvent,
  type RunGrpoOptions,
  type RunGrpoResult,
  type RunGrpoSettings,
  type RunGrpoSettingsInput,
} from './run-grpo.js';
export { createRewardSource, REWARD_KINDS, type RewardKind, type RewardSourceOptions } from './reward-source-for.js';
export type { PolicySample, PolicySampleOptions, TrainablePolicy } from '../environment/index.js';
