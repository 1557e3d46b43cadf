export {
  chatTemplateFromConfig,
  chatTemplateOption,
  MAX_CHAT_TEMPLATE_FILE_BYTES,
  readChatTemplate,
  type ChatTemplate,
  type ChatTemplateInput,
  type ChatTemplateMessage,
  type ChatTemplateOptions,
  type ChatTemplateRenderOptions,
} from './chat-template.js';
export { checkVllmVersion, compareVersions, MIN_VLLM_VERSION, type VllmVersionProbe } from './check-vllm-version.js';
export { createOpenRlhfRewardModel, type OpenRlhfRewardOptions } from './openrlhf-reward-model.js';
export { RemoteRewardOptionsSchema, type RemoteRewardOptionsInput, type RemoteRewardRuntime } from './remote-options.js';
export { canonicalPlanText, defaultRewardPrompt } from './reward-prompt.js';
export { scoringInput, type ScoringInput, type ScoringInputOptions } from './scoring-input.js';
export { createVllmClassifyRewardModel, type VllmClassifyOptions } from './vllm-classify-reward-model.js';
export { createVllmPoolingRewardModel, type VllmPoolingOptions } from './vllm-pooling-reward-model.js';
