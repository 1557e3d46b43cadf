export { evaluateCheckpointByExecution, improveByExecution, type ImproveByExecutionOptions, type ImprovementRound } from './improve-by-execution.js';
