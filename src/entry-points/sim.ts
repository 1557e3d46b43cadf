/**
 * `orchrm/sim`: the controlled environment (docs/sim.md) and the demo that runs the whole
 * pipeline on it. Simulated task families, sub-agent models and a trainable orchestrator, also
 * served over the OpenAI API; nothing here is needed to run orchrm on real servers.
 */
export {
  BUILTIN_SCENARIOS,
  ScenarioSchema,
  baseCheckpoint,
  createSimEnvironment,
  createSimTrainableOrchestrator,
  generateScenarioTasks,
  improveCheckpoint,
  loadCheckpoint,
  loadScenario,
  saveCheckpoint,
  scenarioNames,
  startOpenAiCompatibleServer,
  type FamilyName,
  type OpenAiCompatibleServer,
  type PolicyCheckpoint,
  type Scenario,
  type ScenarioInput,
  type SimEnvironment,
  type SimEnvironmentOptions,
  type SimTrainableOrchestrator,
  type TaskSplit,
} from '../sim/index.js';
export { FULL_SIZES, QUICK_SIZES, formatDemoSummary, runDemo, runLoop, type DemoOptions, type DemoOutcome, type DemoSizes, type LoopOptions, type LoopRound } from '../demo/index.js';
