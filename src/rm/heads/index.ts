export { checkHeadSize, createHead, headTensorLayout, MAX_HEAD_PARAMETERS, type HeadTensorLayout } from './create-head.js';
export { HeadConfigSchema, LinearHeadConfigSchema, MlpHeadConfigSchema, type HeadConfig, type HeadConfigInput, type MlpHeadConfig } from './head-config.js';
export { LinearHead } from './linear-head.js';
export { MlpHead } from './mlp-head.js';
export type { HeadTensor, ParameterArray, RewardHead } from './reward-head.js';
