import { UserError } from '../../core/index.js';
import { HeadConfigSchema, type HeadConfig, type HeadConfigInput } from './head-config.js';
import { LinearHead } from './linear-head.js';
import { MlpHead } from './mlp-head.js';
import type { RewardHead } from './reward-head.js';

/**
 * Most parameters a head may have: 2^28 (1 GiB as float32, 2 GiB as float64, and as much again
 * for its gradient). That is the default 2^18 hashed features times the largest hidden width
 * (1024), or 2^24 features times 16 hidden units; beyond it typed arrays cannot be allocated at
 * all, and training would crash with a RangeError instead of saying what to change.
 */
export const MAX_HEAD_PARAMETERS = 2 ** 28;

/** One tensor a head holds, as its model file stores it. */
export interface HeadTensorLayout {
  name: string;
  shape: number[];
  dtype: 'F64' | 'F32';
}

/**
 * The tensors a head of this config over `inputDimension` inputs holds (names, shapes, storage),
 * computed without allocating any of them, so a model file's header can be checked first.
 * `createHead(config, inputDimension, seed).tensors` matches it.
 */
export function headTensorLayout(config: HeadConfig, inputDimension: number): HeadTensorLayout[] {
  if (config.kind === 'linear') {
    return [
      { name: 'linear.weight', shape: [inputDimension, 1], dtype: 'F64' },
      { name: 'linear.bias', shape: [1], dtype: 'F64' },
    ];
  }
  const { hidden } = config;
  return [
    { name: 'mlp.w1', shape: [inputDimension, hidden], dtype: config.firstLayerPrecision === 'float32' ? 'F32' : 'F64' },
    { name: 'mlp.b1', shape: [hidden], dtype: 'F64' },
    { name: 'mlp.w2', shape: [hidden], dtype: 'F64' },
    { name: 'mlp.b2', shape: [1], dtype: 'F64' },
  ];
}

/** Throws a UserError naming what to lower when a head of this config would pass `MAX_HEAD_PARAMETERS`. */
export function checkHeadSize(config: HeadConfig, inputDimension: number): void {
  const parameters = headTensorLayout(config, inputDimension).reduce((sum, tensor) => sum + tensor.shape.reduce((product, size) => product * size, 1), 0);
  if (parameters <= MAX_HEAD_PARAMETERS) return;
  const fix = config.kind === 'mlp' ? `lower the hidden width (${config.hidden}) or the hashed dimension (bits:K of the encoder spec)` : 'lower the hashed dimension (bits:K of the encoder spec)';
  throw new UserError(`a ${config.kind} head over ${inputDimension} input features has ${parameters} parameters, more than the ${MAX_HEAD_PARAMETERS} orchrm allows; ${fix}`);
}

/**
 * A fresh head for inputs of `inputDimension` coordinates; `seed` drives the MLP's
 * initialisation (the linear head starts at zero). A head over `MAX_HEAD_PARAMETERS` is a UserError.
 *
 * @example
 * createHead({ kind: 'mlp', hidden: 16 }, pipeline.dimension, 7)
 */
export function createHead(config: HeadConfigInput, inputDimension: number, seed: number): RewardHead {
  const parsed = HeadConfigSchema.parse(config);
  checkHeadSize(parsed, inputDimension);
  return parsed.kind === 'linear' ? new LinearHead(inputDimension) : new MlpHead(parsed, inputDimension, seed);
}
