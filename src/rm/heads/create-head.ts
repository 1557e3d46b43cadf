import { HeadConfigSchema, type HeadConfigInput } from './head-config.js';
import { LinearHead } from './linear-head.js';
import { MlpHead } from './mlp-head.js';
import type { RewardHead } from './reward-head.js';

/**
 * A fresh head for inputs of `inputDimension` coordinates; `seed` drives the MLP's
 * initialisation (the linear head starts at zero).
 *
 * @example
 * createHead({ kind: 'mlp', hidden: 16 }, pipeline.dimension, 7)
 */
export function createHead(config: HeadConfigInput, inputDimension: number, seed: number): RewardHead {
  const parsed = HeadConfigSchema.parse(config);
  return parsed.kind === 'linear' ? new LinearHead(inputDimension) : new MlpHead(parsed, inputDimension, seed);
}
