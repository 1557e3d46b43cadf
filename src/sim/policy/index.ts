export { addScaledWeights, applyGradient } from './apply-gradient.js';
export { applicableMalformations, MALFORMATION_KINDS, writeMalformedPlanText, type MalformationKind } from './corrupt-plan-text.js';
export { decomposeQuestion } from './decompose-question.js';
export { improveCheckpoint, type ImproveCheckpointOptions, type RewardedSample } from './improve-checkpoint.js';
export { addGradLogProb, decisionLogProb, gradLogProb, headProbabilities, logProbOf, sampleDecision, type Decision } from './log-linear.js';
export {
  baseCheckpoint,
  checkpointFromFile,
  checkpointToFile,
  cloneCheckpoint,
  loadCheckpoint,
  POLICY_CHECKPOINT_SCHEMA_VERSION,
  PolicyCheckpointFileSchema,
  saveCheckpoint,
  zeroWeights,
  type PolicyCheckpoint,
  type PolicyCheckpointFile,
  type PolicyWeights,
} from './policy-checkpoint.js';
export { choiceIndex, HEAD_NAMES, headSize, POLICY_HEADS, type HeadChoice, type HeadName } from './policy-heads.js';
export { FEATURE_COUNT, FEATURE_NAMES, questionFeatures, type FeatureName } from './question-features.js';
export { malformedRate, samplePlanText, type SamplePlanTextOptions, type SampledPlanText } from './sample-plan-text.js';
export { samplePlan, type AnswerDirectly, type SamplePlanOptions, type SampledPlan } from './sample-plan.js';
export {
  createSimOrchestratorProvider,
  orchestratorRefOfModel,
  SIM_ORCHESTRATOR_MODEL_PREFIX,
  SIM_ORCHESTRATOR_NAME,
  simOrchestratorRef,
  type SimOrchestratorProvider,
  type SimOrchestratorProviderOptions,
} from './sim-orchestrator-provider.js';
export { createSimPolicy, type SimPolicy, type SimPolicyOptions, type SimPolicySampleOptions } from './sim-policy.js';
export { jsonPlanObject, writePlanText, type PlanTextFormat } from './write-plan-text.js';
