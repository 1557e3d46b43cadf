export { saveCheckpointToStore, listStoredCheckpoints, type StoredCheckpoint } from './checkpoint-store.js';
export { clippedSurrogate, klK3, type KlTerm, type SurrogateTerm } from './clipped-objective.js';
export { createExecutionReward, createPlanExecutor, type ExecutionRewardOptions, type PlanExecutor } from './execution-reward.js';
export { groupAdvantages } from './group-advantages.js';
export { GrpoConfigSchema, parseGrpoConfig, type GrpoConfig, type GrpoConfigInput } from './grpo-config.js';
export {
  trainGrpo,
  type EvaluationPoint,
  type GrpoResult,
  type GrpoStepLog,
  type GrpoTrainerOptions,
  type HeldOutEvaluation,
  type TrainingTokens,
} from './grpo-trainer.js';
export { createHybridReward, type HybridRewardOptions } from './hybrid-reward.js';
export { createJudgeReward, type JudgeRewardOptions } from './judge-reward.js';
export type { PlanReward, RewardContext, RewardGroup, RewardRequestPlan, RewardSource } from './reward-source.js';
export { createRmReward } from './rm-reward.js';
export { grpoRunKey, loadSimGrpoState, removeSimGrpoState, saveSimGrpoState, type GrpoResumeState, type SimGrpoState } from './grpo-resume-state.js';
export { runSimGrpo, type RunSimGrpoOptions, type RunSimGrpoResult } from './run-sim-grpo.js';
export { createSimHeldOutEvaluator, type SimHeldOutOptions } from './sim-held-out-evaluator.js';
export { createSimRewardSource, REWARD_KINDS, type RewardKind, type SimRewardOptions } from './sim-reward-source.js';
export { createSimTrainablePolicy, type SimAction, type SimTrainablePolicy } from './sim-trainable-policy.js';
export type { PolicySample, PolicySampleOptions, TrainablePolicy } from './trainable-policy.js';
