import type { HeadTensor, ParameterArray, RewardHead } from './heads/reward-head.js';

/** Adam's moments and step count, for training resume state; arrays are copies. */
export interface AdamState {
  step: number;
  first: ParameterArray[];
  second: ParameterArray[];
}

export interface AdamSettings {
  beta1: number;
  beta2: number;
  epsilon: number;
  /** L2 coefficient added to the gradient of tensors with `decay`. */
  l2: number;
}

/**
 * Adam (Kingma & Ba 2015) with bias correction, over a head's tensors. The sparse first layer
 * is updated lazily, like `torch.optim.SparseAdam`: only the rows the minibatch touched get
 * their moments and values updated (rows not seen keep their moments undecayed), which keeps a
 * step proportional to the batch's features rather than to 2^hashBits. Under full-batch
 * training every active row is touched each step and this is exactly dense Adam.
 */
export class Adam {
  private readonly first: ParameterArray[];
  private readonly second: ParameterArray[];
  private step = 0;

  constructor(
    private readonly head: RewardHead,
    private readonly settings: AdamSettings,
  ) {
    // Moments are stored like the values they belong to (float32 for a float32 layer).
    const moments = (tensor: HeadTensor) => (tensor.values instanceof Float32Array ? new Float32Array(tensor.values.length) : new Float64Array(tensor.values.length));
    this.first = head.tensors.map(moments);
    this.second = head.tensors.map(moments);
  }

  /** A copy of the moments and step count (what a resumed run needs to continue identically). */
  exportState(): AdamState {
    return { step: this.step, first: this.first.map((moment) => moment.slice()), second: this.second.map((moment) => moment.slice()) };
  }

  /** Restores `exportState()` output taken from an optimiser over the same head layout. */
  restoreState(state: AdamState): void {
    this.step = state.step;
    this.first.forEach((moment, index) => moment.set(state.first[index]!));
    this.second.forEach((moment, index) => moment.set(state.second[index]!));
  }

  /** One update with step size `learningRate` from the head's current gradients. */
  update(learningRate: number): void {
    this.step++;
    const { beta1, beta2 } = this.settings;
    const correction = Math.sqrt(1 - beta2 ** this.step);
    const correctedRate = (learningRate * correction) / (1 - beta1 ** this.step);
    // PyTorch adds epsilon to sqrt(v_hat); with the correction folded into the rate it scales too.
    const epsilonHat = this.settings.epsilon * correction;
    this.head.tensors.forEach((tensor, index) => {
      const first = this.first[index]!;
      const second = this.second[index]!;
      if (tensor.rowWidth === undefined) this.updateRange(tensor, first, second, 0, tensor.values.length, correctedRate, epsilonHat);
      else {
        const rows = this.head.touchedRows;
        const width = tensor.rowWidth;
        for (let position = 0; position < this.head.touchedCount; position++) {
          const begin = rows[position]! * width;
          this.updateRange(tensor, first, second, begin, begin + width, correctedRate, epsilonHat);
        }
      }
    });
  }

  private updateRange(tensor: HeadTensor, first: ParameterArray, second: ParameterArray, begin: number, end: number, correctedRate: number, epsilonHat: number): void {
    const { beta1, beta2 } = this.settings;
    const l2 = tensor.decay ? this.settings.l2 : 0;
    const values = tensor.values;
    const gradient = tensor.gradient;
    for (let index = begin; index < end; index++) {
      const g = gradient[index]! + l2 * values[index]!;
      const m = beta1 * first[index]! + (1 - beta1) * g;
      const v = beta2 * second[index]! + (1 - beta2) * g * g;
      first[index] = m;
      second[index] = v;
      values[index]! -= (correctedRate * m) / (Math.sqrt(v) + epsilonHat);
    }
  }
}
