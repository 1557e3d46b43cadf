import type { HeadConfig } from './head-config.js';

/** Parameter storage: float64, or float32 where memory traffic matters (the MLP's sparse layer). */
export type ParameterArray = Float64Array | Float32Array;

/** One named parameter tensor of a head, with its gradient buffer of the same shape and type. */
export interface HeadTensor {
  readonly name: string;
  readonly shape: readonly number[];
  readonly values: ParameterArray;
  readonly gradient: ParameterArray;
  /**
   * Set on the sparse first layer (shape [inputDimension, rowWidth]): only rows listed in the
   * head's `touchedRows` have a nonzero gradient, and optimisers update only those.
   */
  readonly rowWidth?: number;
  /** Whether L2 applies (weights yes, biases no). */
  readonly decay: boolean;
}

/**
 * A reward head over sparse inputs given as CSR slices (`indices[start..end)`, `values`).
 * `forward` keeps the activations of one of two slots (winner and loser of a pair) for the
 * matching `backward`, which adds `scoreGradient * d score / d parameters` to the gradients.
 */
export interface RewardHead {
  readonly config: HeadConfig;
  readonly inputDimension: number;
  readonly tensors: readonly HeadTensor[];
  /** Rows of the sparse tensor touched by `backward` since `clearGradients` (first `touchedCount`). */
  readonly touchedRows: Uint32Array;
  readonly touchedCount: number;
  /** Scores one example without keeping activations. */
  score(indices: Uint32Array, values: Float32Array, start: number, end: number): number;
  forward(indices: Uint32Array, values: Float32Array, start: number, end: number, slot: 0 | 1): number;
  backward(indices: Uint32Array, values: Float32Array, start: number, end: number, slot: 0 | 1, scoreGradient: number): void;
  /** Zeroes the gradients (only the touched rows of the sparse tensor) and the touched list. */
  clearGradients(): void;
  /**
   * Attribution of one example's score to its inputs: writes into `weights[position - start]`
   * the weight that input's value is multiplied by, and returns the baseline, so that
   * `baseline + sum(values[p] * weights[p - start])` equals `score(...)` up to rounding.
   * Linear head: the weights themselves and the bias (exact). MLP head: integrated gradients
   * from the all-zero input, in closed form (see `MlpHead.attribute`).
   */
  attribute(indices: Uint32Array, values: Float32Array, start: number, end: number, weights: Float64Array): number;
}
