export { createSimTrainableOrchestrator, type SimTrainableOrchestrator } from './sim-trainable-orchestrator.js';
export { createSimTrainablePolicy, type SimAction, type SimTrainablePolicy } from './sim-trainable-policy.js';
