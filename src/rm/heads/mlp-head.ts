import { Rng } from '../../core/index.js';
import type { MlpHeadConfig } from './head-config.js';
import type { HeadTensor, ParameterArray, RewardHead } from './reward-head.js';
import { TouchedRows } from './touched-rows.js';

/**
 * r = w2 . act(W1^T x + b1) + b2 with W1 stored row-major per input feature ([inputDimension,
 * hidden]), so the first layer adds `x_j * W1[j, :]` for each nonzero j and its gradient touches
 * only those rows (stored as float32 unless `firstLayerPrecision` says otherwise). Initialised from the seed: W1 ~ N(0, initScale^2), w2 ~ N(0, 1/hidden),
 * biases 0.
 */
export class MlpHead implements RewardHead {
  readonly tensors: readonly HeadTensor[];
  private readonly hidden: number;
  private readonly relu: boolean;
  private readonly w1: ParameterArray;
  private readonly b1: Float64Array;
  private readonly w2: Float64Array;
  private readonly b2: Float64Array;
  private readonly w1Gradient: ParameterArray;
  private readonly b1Gradient: Float64Array;
  private readonly w2Gradient: Float64Array;
  private readonly b2Gradient: Float64Array;
  /** Pre-activations and activations of slots 0 and 1, `hidden` each. */
  private readonly preActivation: Float64Array;
  private readonly activation: Float64Array;
  private readonly delta: Float64Array;
  private readonly touched: TouchedRows;

  constructor(
    readonly config: MlpHeadConfig,
    readonly inputDimension: number,
    seed: number,
  ) {
    const hidden = config.hidden;
    this.hidden = hidden;
    this.relu = config.activation === 'relu';
    const firstLayer = (length: number) => (config.firstLayerPrecision === 'float32' ? new Float32Array(length) : new Float64Array(length));
    this.w1 = firstLayer(inputDimension * hidden);
    this.b1 = new Float64Array(hidden);
    this.w2 = new Float64Array(hidden);
    this.b2 = new Float64Array(1);
    this.w1Gradient = firstLayer(inputDimension * hidden);
    this.b1Gradient = new Float64Array(hidden);
    this.w2Gradient = new Float64Array(hidden);
    this.b2Gradient = new Float64Array(1);
    this.preActivation = new Float64Array(2 * hidden);
    this.activation = new Float64Array(2 * hidden);
    this.delta = new Float64Array(hidden);
    this.touched = new TouchedRows(inputDimension);
    const rng = new Rng(seed).fork('mlp-init');
    for (let index = 0; index < this.w1.length; index++) this.w1[index] = rng.normal() * config.initScale;
    for (let index = 0; index < hidden; index++) this.w2[index] = rng.normal() / Math.sqrt(hidden);
    this.tensors = [
      { name: 'mlp.w1', shape: [inputDimension, hidden], values: this.w1, gradient: this.w1Gradient, rowWidth: hidden, decay: true },
      { name: 'mlp.b1', shape: [hidden], values: this.b1, gradient: this.b1Gradient, decay: false },
      { name: 'mlp.w2', shape: [hidden], values: this.w2, gradient: this.w2Gradient, decay: true },
      { name: 'mlp.b2', shape: [1], values: this.b2, gradient: this.b2Gradient, decay: false },
    ];
  }

  get touchedRows(): Uint32Array {
    return this.touched.rows;
  }

  get touchedCount(): number {
    return this.touched.count;
  }

  score(indices: Uint32Array, values: Float32Array, start: number, end: number): number {
    return this.forward(indices, values, start, end, 0);
  }

  forward(indices: Uint32Array, values: Float32Array, start: number, end: number, slot: 0 | 1): number {
    const hidden = this.hidden;
    const w1 = this.w1;
    const pre = this.preActivation;
    const base = slot * hidden;
    for (let unit = 0; unit < hidden; unit++) pre[base + unit] = this.b1[unit]!;
    for (let position = start; position < end; position++) {
      const row = indices[position]! * hidden;
      const value = values[position]!;
      for (let unit = 0; unit < hidden; unit++) pre[base + unit]! += value * w1[row + unit]!;
    }
    const activation = this.activation;
    const w2 = this.w2;
    let score = this.b2[0]!;
    for (let unit = 0; unit < hidden; unit++) {
      const z = pre[base + unit]!;
      const a = this.relu ? (z > 0 ? z : 0) : Math.tanh(z);
      activation[base + unit] = a;
      score += w2[unit]! * a;
    }
    return score;
  }

  /**
   * Integrated gradients (Sundararajan et al. 2017) from the all-zero input, exact rather than
   * sampled: along x(t) = t x each hidden unit's pre-activation is b1 + t a (a = W1^T x), so the
   * path average of its slope is the secant (act(b1 + a) - act(b1)) / a (act'(b1) when a = 0).
   * Input j then gets weight sum_u W1[j, u] w2[u] secant[u], and the contributions of all
   * inputs plus the baseline score(0) = b2 + w2 . act(b1) sum to the score exactly (the
   * completeness of integrated gradients). An approximation of each input's role all the same:
   * interactions between inputs are shared out along the path, not attributed to either.
   */
  attribute(indices: Uint32Array, values: Float32Array, start: number, end: number, weights: Float64Array): number {
    const hidden = this.hidden;
    const w1 = this.w1;
    const pre = new Float64Array(hidden);
    for (let position = start; position < end; position++) {
      const row = indices[position]! * hidden;
      const value = values[position]!;
      for (let unit = 0; unit < hidden; unit++) pre[unit]! += value * w1[row + unit]!;
    }
    const act = (z: number) => (this.relu ? (z > 0 ? z : 0) : Math.tanh(z));
    const slope = (z: number) => (this.relu ? (z > 0 ? 1 : 0) : 1 - Math.tanh(z) ** 2);
    const unitWeight = new Float64Array(hidden);
    let baseline = this.b2[0]!;
    for (let unit = 0; unit < hidden; unit++) {
      const bias = this.b1[unit]!;
      const change = pre[unit]!;
      baseline += this.w2[unit]! * act(bias);
      const secant = change === 0 ? slope(bias) : (act(bias + change) - act(bias)) / change;
      unitWeight[unit] = this.w2[unit]! * secant;
    }
    for (let position = start; position < end; position++) {
      const row = indices[position]! * hidden;
      let weight = 0;
      for (let unit = 0; unit < hidden; unit++) weight += w1[row + unit]! * unitWeight[unit]!;
      weights[position - start] = weight;
    }
    return baseline;
  }

  backward(indices: Uint32Array, values: Float32Array, start: number, end: number, slot: 0 | 1, scoreGradient: number): void {
    const hidden = this.hidden;
    const base = slot * hidden;
    const delta = this.delta;
    for (let unit = 0; unit < hidden; unit++) {
      const a = this.activation[base + unit]!;
      this.w2Gradient[unit]! += scoreGradient * a;
      // d act / d z: ReLU's is 1 above zero (0 at zero, as in PyTorch); tanh's is 1 - a^2.
      const slope = this.relu ? (this.preActivation[base + unit]! > 0 ? 1 : 0) : 1 - a * a;
      const d = scoreGradient * this.w2[unit]! * slope;
      delta[unit] = d;
      this.b1Gradient[unit]! += d;
    }
    this.b2Gradient[0]! += scoreGradient;
    const gradient = this.w1Gradient;
    const touched = this.touched;
    for (let position = start; position < end; position++) {
      const index = indices[position]!;
      const row = index * hidden;
      const value = values[position]!;
      for (let unit = 0; unit < hidden; unit++) gradient[row + unit]! += value * delta[unit]!;
      touched.add(index);
    }
  }

  clearGradients(): void {
    const hidden = this.hidden;
    const rows = this.touched.rows;
    for (let position = 0; position < this.touched.count; position++) this.w1Gradient.fill(0, rows[position]! * hidden, (rows[position]! + 1) * hidden);
    this.touched.clear();
    this.b1Gradient.fill(0);
    this.w2Gradient.fill(0);
    this.b2Gradient[0] = 0;
  }
}
