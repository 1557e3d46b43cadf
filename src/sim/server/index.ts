export { defaultModelSlot, SIM_JUDGE_MODEL } from './default-model-slot.js';
export { FAULT_KINDS, FaultConfigSchema, LatencyConfigSchema, type FaultConfig, type FaultConfigInput, type FaultKind } from './fault-config.js';
export { createFaultInjector, type FaultDecision, type FaultInjector } from './fault-injector.js';
export { DEFAULT_EMBEDDING_DIMENSIONS, DEFAULT_EMBEDDING_MODEL, hashedEmbedding } from './hashed-embedding.js';
export type { ServerStats } from './server-stats.js';
export {
  DEFAULT_MAX_BODY_BYTES,
  startOpenAiCompatibleServer,
  type OpenAiCompatibleServer,
  type OpenAiCompatibleServerOptions,
} from './start-openai-compatible-server.js';
