import { describe, expect, it } from 'vitest';
import { parseBtConfig } from './bt-config.js';
import { trainBradleyTerry } from './bt-trainer.js';
import { createHead } from './heads/create-head.js';
import { syntheticPairs } from './synthetic-pairs.js';
import { randomPairDataset } from './test-fixtures/random-pair-dataset.js';
import { trainRewardModel } from './train-reward-model.js';
import type { PairDataset } from './pair-dataset.js';

const softplus = (x: number) => (x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x)));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Dense difference vectors d_i = x_w - x_l of every pair. */
function differences(dataset: PairDataset): number[][] {
  const { rowStart, indices, values, dimension } = dataset.matrix;
  const dense = (row: number) => {
    const vector = new Array<number>(dimension).fill(0);
    for (let position = rowStart[row]!; position < rowStart[row + 1]!; position++) vector[indices[position]!]! += values[position]!;
    return vector;
  };
  return Array.from(dataset.winner, (winner, pair) => {
    const a = dense(winner);
    const b = dense(dataset.loser[pair]!);
    return a.map((value, index) => value - b[index]!);
  });
}

/** f(w) = mean_i weight_i softplus(-(d_i . w - margin_i)) + l2/2 ||w||^2 */
function objective(dataset: PairDataset, d: number[][], w: readonly number[], l2: number): number {
  let total = 0;
  d.forEach((row, pair) => {
    const z = row.reduce((sum, value, index) => sum + value * w[index]!, 0) - dataset.margin[pair]!;
    total += dataset.weight[pair]! * softplus(-z);
  });
  return total / d.length + (l2 / 2) * w.reduce((sum, value) => sum + value * value, 0);
}

/** Full-batch Newton's method with Gaussian elimination: the exact optimum of `objective`. */
function newtonOptimum(dataset: PairDataset, d: number[][], l2: number): number[] {
  const n = dataset.matrix.dimension;
  const w = new Array<number>(n).fill(0);
  for (let iteration = 0; iteration < 50; iteration++) {
    const gradient = w.map((value) => l2 * value);
    const hessian = Array.from({ length: n }, (_, row) => Array.from({ length: n }, (_, column) => (row === column ? l2 : 0)));
    d.forEach((row, pair) => {
      const z = row.reduce((sum, value, index) => sum + value * w[index]!, 0) - dataset.margin[pair]!;
      const weight = dataset.weight[pair]! / d.length;
      const slope = -weight * sigmoid(-z);
      const curvature = weight * sigmoid(z) * sigmoid(-z);
      for (let i = 0; i < n; i++) {
        gradient[i]! += slope * row[i]!;
        for (let j = 0; j < n; j++) hessian[i]![j]! += curvature * row[i]! * row[j]!;
      }
    });
    // Solve hessian * step = gradient.
    const augmented = hessian.map((row, index) => [...row, gradient[index]!]);
    for (let column = 0; column < n; column++) {
      let pivot = column;
      for (let row = column + 1; row < n; row++) if (Math.abs(augmented[row]![column]!) > Math.abs(augmented[pivot]![column]!)) pivot = row;
      [augmented[column], augmented[pivot]] = [augmented[pivot]!, augmented[column]!];
      for (let row = 0; row < n; row++) {
        if (row === column) continue;
        const factor = augmented[row]![column]! / augmented[column]![column]!;
        for (let k = column; k <= n; k++) augmented[row]![k]! -= factor * augmented[column]![k]!;
      }
    }
    for (let i = 0; i < n; i++) w[i]! -= augmented[i]![n]! / augmented[i]![i]!;
  }
  return w;
}

describe('trainBradleyTerry', () => {
  it('reaches the Newton optimum of a small convex problem to within 1e-3', () => {
    const dataset = randomPairDataset({ dimension: 6, rows: 30, nonzerosPerRow: 4, pairs: 80, seed: 5 });
    const l2 = 0.01;
    const config = parseBtConfig({ l2, batchSize: 80, maxEpochs: 3000, learningRate: 0.05, lrSchedule: 'linear', earlyStoppingPatience: 0 });
    const head = createHead(config.head, 6, 0);
    trainBradleyTerry(dataset, head, config);
    const d = differences(dataset);
    const optimum = objective(dataset, d, newtonOptimum(dataset, d, l2), l2);
    const trained = objective(dataset, d, Array.from(head.tensors[0]!.values), l2);
    expect(trained).toBeGreaterThanOrEqual(optimum - 1e-12);
    expect(trained - optimum).toBeLessThan(1e-3);
  });

  it('logs per-epoch loss, strict accuracy, margin and reward range', () => {
    const dataset = randomPairDataset({ dimension: 10, rows: 20, nonzerosPerRow: 3, pairs: 40, seed: 2 });
    const logs: number[] = [];
    const config = parseBtConfig({ maxEpochs: 4, batchSize: 8 });
    const result = trainBradleyTerry(dataset, createHead(config.head, 10, 0), config, { events: (event) => logs.push(event.log.epoch) });
    expect(logs).toEqual([1, 2, 3, 4]);
    const first = result.history[0]!.train;
    // The first minibatch is scored by a zero model: every pair ties, and a tie is wrong.
    expect(first.loss).toBeGreaterThan(0);
    expect(first.rewardMin).toBeLessThanOrEqual(first.rewardMean);
    expect(first.rewardMean).toBeLessThanOrEqual(first.rewardMax);
    expect(result.history.at(-1)!.train.loss).toBeLessThan(first.loss);
    expect(result.steps).toBe(4 * 5);
  });

  it('is deterministic under a seed, and the seed matters for the MLP', () => {
    const dataset = randomPairDataset({ dimension: 16, rows: 30, nonzerosPerRow: 4, pairs: 60, seed: 8 });
    const run = (seed: number) => {
      const config = parseBtConfig({ head: { kind: 'mlp', hidden: 4 }, maxEpochs: 3, batchSize: 7, seed });
      const head = createHead(config.head, 16, seed);
      trainBradleyTerry(dataset, head, config);
      return head.tensors.map((tensor) => Array.from(tensor.values));
    };
    expect(run(1)).toEqual(run(1));
    expect(run(1)).not.toEqual(run(2));
  });

  it('moves every trainable parameter tensor and every row the data touches (TRL test_train)', () => {
    const dataset = randomPairDataset({ dimension: 16, rows: 30, nonzerosPerRow: 4, pairs: 60, seed: 4 });
    for (const headConfig of [{ kind: 'linear' as const }, { kind: 'mlp' as const, hidden: 4 }]) {
      const config = parseBtConfig({ head: headConfig, maxEpochs: 2, batchSize: 10, centerRewardsCoefficient: 0.01 });
      const head = createHead(config.head, 16, 0);
      const before = head.tensors.map((tensor) => tensor.values.slice());
      trainBradleyTerry(dataset, head, config);
      const used = new Set(dataset.matrix.indices);
      head.tensors.forEach((tensor, index) => {
        expect(tensor.values, tensor.name).not.toEqual(before[index]);
        if (tensor.rowWidth !== undefined) {
          for (const row of used) {
            const width = tensor.rowWidth;
            expect(tensor.values.subarray(row * width, row * width + width), `${tensor.name} row ${row}`).not.toEqual(before[index]!.subarray(row * width, row * width + width));
          }
        }
      });
    }
  });
});

describe('trainRewardModel on synthetic plans', () => {
  it('separates separable pairs completely (linear and MLP)', async () => {
    const pairs = syntheticPairs({ pairs: 400, seed: 3, validationShare: 0 });
    for (const head of [{ kind: 'linear' as const }, { kind: 'mlp' as const, hidden: 8 }]) {
      const { training } = await trainRewardModel(pairs, { head, maxEpochs: 15, learningRate: 0.05, batchSize: 16, encoder: 'words:1-2,structure,task-stats,cross,bits:16', ensembleSize: 0 });
      expect(training.history.at(-1)!.train.accuracy, head.kind).toBe(1);
    }
  });

  it('stops early on the validation split and keeps the best epoch', async () => {
    const pairs = syntheticPairs({ pairs: 300, seed: 4, validationShare: 0.3 });
    const { training, model } = await trainRewardModel(pairs, { maxEpochs: 60, learningRate: 0.2, lrSchedule: 'constant', earlyStoppingPatience: 2, encoder: 'words:1-3,bits:16' });
    expect(training.validationPairs).toBeGreaterThan(0);
    const losses = training.history.map((log) => log.validation!.loss);
    expect(training.bestEpoch).toBe(losses.indexOf(Math.min(...losses)) + 1);
    if (training.stoppedEarly) expect(training.history.length).toBeLessThan(60);
    expect(model.provenance.trainingDataHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
