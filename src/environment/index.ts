export type { Environment, EnvironmentOrchestratorOptions } from './environment.js';
export { createRemoteEnvironment, type RemoteEnvironment, type RemoteEnvironmentOptions, type RemoteTaskSource, type TaskGenerator } from './remote-environment.js';
export type { HeldOutEvaluation, HeldOutOptions, PolicySample, PolicySampleOptions, TrainableOrchestrator, TrainablePolicy } from './trainable-policy.js';
