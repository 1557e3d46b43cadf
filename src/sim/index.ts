export { createSimEnvironment, type SimEnvironment, type SimEnvironmentOptions } from './environment.js';
export type { FamilyName, SimFamily, SimProblem, SimStep } from './families/family.js';
export { baseCheckpoint, improveCheckpoint, loadCheckpoint, saveCheckpoint, type PolicyCheckpoint } from './policy/index.js';
export { generateScenarioTasks, splitOf, type ScenarioTaskOptions, type TaskSplit } from './scenario-tasks.js';
export * from './scenario/index.js';
export { startOpenAiCompatibleServer, type OpenAiCompatibleServer } from './server/index.js';
