export { evaluateCheckpointByExecution, improveByExecution, type ImproveByExecutionOptions, type ImproveEvent, type ImprovementRound } from './improve-by-execution.js';
