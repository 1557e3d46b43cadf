import type { HeadConfig } from './head-config.js';
import type { HeadTensor, RewardHead } from './reward-head.js';
import { TouchedRows } from './touched-rows.js';

/**
 * r = w . x + b. Starts at zero (the Bradley-Terry loss is convex in w, so no symmetry to
 * break). The bias only matters under reward centering, where it absorbs the mean score.
 */
export class LinearHead implements RewardHead {
  readonly config: HeadConfig = { kind: 'linear' };
  readonly tensors: readonly HeadTensor[];
  private readonly weights: Float64Array;
  private readonly weightGradient: Float64Array;
  private readonly bias: Float64Array;
  private readonly biasGradient: Float64Array;
  private readonly touched: TouchedRows;

  constructor(readonly inputDimension: number) {
    this.weights = new Float64Array(inputDimension);
    this.weightGradient = new Float64Array(inputDimension);
    this.bias = new Float64Array(1);
    this.biasGradient = new Float64Array(1);
    this.touched = new TouchedRows(inputDimension);
    this.tensors = [
      { name: 'linear.weight', shape: [inputDimension, 1], values: this.weights, gradient: this.weightGradient, rowWidth: 1, decay: true },
      { name: 'linear.bias', shape: [1], values: this.bias, gradient: this.biasGradient, decay: false },
    ];
  }

  get touchedRows(): Uint32Array {
    return this.touched.rows;
  }

  get touchedCount(): number {
    return this.touched.count;
  }

  score(indices: Uint32Array, values: Float32Array, start: number, end: number): number {
    const weights = this.weights;
    let sum = this.bias[0]!;
    for (let position = start; position < end; position++) sum += weights[indices[position]!]! * values[position]!;
    return sum;
  }

  /** Exact: each input contributes weight x value, and the bias is the baseline. */
  attribute(indices: Uint32Array, _values: Float32Array, start: number, end: number, weights: Float64Array): number {
    for (let position = start; position < end; position++) weights[position - start] = this.weights[indices[position]!]!;
    return this.bias[0]!;
  }

  forward(indices: Uint32Array, values: Float32Array, start: number, end: number): number {
    return this.score(indices, values, start, end);
  }

  backward(indices: Uint32Array, values: Float32Array, start: number, end: number, _slot: 0 | 1, scoreGradient: number): void {
    const gradient = this.weightGradient;
    const touched = this.touched;
    for (let position = start; position < end; position++) {
      const index = indices[position]!;
      gradient[index]! += scoreGradient * values[position]!;
      touched.add(index);
    }
    this.biasGradient[0]! += scoreGradient;
  }

  clearGradients(): void {
    const rows = this.touched.rows;
    for (let position = 0; position < this.touched.count; position++) this.weightGradient[rows[position]!] = 0;
    this.touched.clear();
    this.biasGradient[0] = 0;
  }
}
