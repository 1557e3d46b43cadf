export { createOpenRlhfRewardModel } from './openrlhf-reward-model.js';
export { RemoteRewardOptionsSchema, type RemoteRewardOptionsInput, type RemoteRewardRuntime } from './remote-options.js';
export { canonicalPlanText, defaultRewardPrompt } from './reward-prompt.js';
export { createVllmClassifyRewardModel, type VllmClassifyOptions } from './vllm-classify-reward-model.js';
