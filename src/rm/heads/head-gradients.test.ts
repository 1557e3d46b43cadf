import { describe, expect, it } from 'vitest';
import { accumulateBatchGradient, evaluatePairTotals, PairTotals } from '../bt-trainer.js';
import { randomPairDataset } from '../test-fixtures/random-pair-dataset.js';
import { createHead } from './create-head.js';
import type { HeadConfigInput } from './head-config.js';
import type { RewardHead } from './reward-head.js';

const dataset = randomPairDataset({ dimension: 12, rows: 8, nonzerosPerRow: 4, pairs: 10, seed: 3 });
const allPairs = Uint32Array.from({ length: 10 }, (_, index) => index);

/** The batch objective over all pairs: mean weighted BT loss plus centering. */
function objective(head: RewardHead, center: number): number {
  const totals = new PairTotals();
  evaluatePairTotals(head, dataset, allPairs, center, totals);
  return totals.loss / totals.pairs;
}

function checkGradients(config: HeadConfigInput, center: number) {
  const head = createHead(config, dataset.matrix.dimension, 11);
  // Move off the all-zero start so every term of the gradient is exercised.
  for (const tensor of head.tensors) for (let index = 0; index < tensor.values.length; index++) tensor.values[index]! += Math.sin(index * 1.7 + tensor.values.length) * 0.3;
  head.clearGradients();
  accumulateBatchGradient(head, dataset, allPairs, 0, allPairs.length, center, new PairTotals());
  const step = 1e-6;
  let checked = 0;
  for (const tensor of head.tensors) {
    for (let index = 0; index < tensor.values.length; index++) {
      const original = tensor.values[index]!;
      tensor.values[index] = original + step;
      const up = objective(head, center);
      tensor.values[index] = original - step;
      const down = objective(head, center);
      tensor.values[index] = original;
      const numeric = (up - down) / (2 * step);
      expect(Math.abs(tensor.gradient[index]! - numeric), `${tensor.name}[${index}]`).toBeLessThan(1e-6 * Math.max(1, Math.abs(numeric)));
      checked++;
    }
  }
  return checked;
}

describe('head gradients against central finite differences', () => {
  it('linear head, with margins, weights and reward centering', () => {
    expect(checkGradients({ kind: 'linear' }, 0.05)).toBe(13);
  });

  it('MLP head with ReLU', () => {
    expect(checkGradients({ kind: 'mlp', hidden: 5, activation: 'relu', initScale: 0.8, firstLayerPrecision: 'float64' }, 0.05)).toBe(12 * 5 + 5 + 5 + 1);
  });

  it('MLP head with tanh, without centering', () => {
    expect(checkGradients({ kind: 'mlp', hidden: 4, activation: 'tanh', initScale: 0.8, firstLayerPrecision: 'float64' }, 0)).toBe(12 * 4 + 4 + 4 + 1);
  });

  it('only touched rows of the sparse layer carry gradient, and clearing zeroes them', () => {
    const head = createHead({ kind: 'mlp', hidden: 3 }, dataset.matrix.dimension, 1);
    accumulateBatchGradient(head, dataset, allPairs, 0, 2, 0, new PairTotals());
    const touched = new Set(head.touchedRows.subarray(0, head.touchedCount));
    const w1 = head.tensors[0]!;
    for (let row = 0; row < dataset.matrix.dimension; row++) {
      if (!touched.has(row)) expect(w1.gradient.subarray(row * 3, row * 3 + 3).every((value) => value === 0)).toBe(true);
    }
    head.clearGradients();
    expect(head.touchedCount).toBe(0);
    for (const tensor of head.tensors) expect(tensor.gradient.every((value) => value === 0)).toBe(true);
  });
});
