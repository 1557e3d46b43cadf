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
export * from './scenario/index.js';
export { startOpenAiCompatibleServer, type OpenAiCompatibleServer } from './server/index.js';
