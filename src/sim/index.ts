export { createSimEnvironment, type SimEnvironment, type SimEnvironmentOptions } from './environment.js';
export type { FamilyName, SimFamily, SimProblem, SimStep } from './families/family.js';
export { createSimTrainableOrchestrator, createSimTrainablePolicy, type SimAction, type SimTrainableOrchestrator, type SimTrainablePolicy } from './grpo/index.js';
export {
  baseCheckpoint,
  improveCheckpoint,
  loadCheckpoint,
  orchestratorRefOfModel,
  saveCheckpoint,
  SIM_ORCHESTRATOR_MODEL_PREFIX,
  SIM_ORCHESTRATOR_NAME,
  simOrchestratorRef,
  type PolicyCheckpoint,
} from './policy/index.js';
export { generateScenarioTasks, splitOf, type ScenarioTaskOptions, type TaskSplit } from './scenario-tasks.js';
export { BUILTIN_SCENARIOS } from './scenario/builtin-scenarios.js';
export { loadScenario, scenarioNames } from './scenario/load-scenario.js';
export * from './scenario/scenario-schema.js';
export { DEFAULT_EMBEDDING_MODEL, FaultConfigSchema, LatencyConfigSchema, type OpenAiCompatibleServer, SIM_JUDGE_MODEL, startOpenAiCompatibleServer } from './server/index.js';
export { calibrateScenario } from './calibrate/calibrate-scenario.js';
export type { CalibrationReport } from './calibrate/calibrate-scenario.js';
export { improveByExecution } from './improve/improve-by-execution.js';
export type { ImproveEvent } from './improve/improve-by-execution.js';
export type { FaultConfigInput } from './server/index.js';
