export type { Orchestrator, WritePlanOptions, WrittenPlan } from './orchestrator.js';
export { createLlmOrchestrator, type LlmOrchestratorOptions } from './llm-orchestrator.js';
export { offeredBlocks } from './offered-blocks.js';
