import type { PairDataset } from './pair-dataset.js';
import type { RewardHead } from './heads/reward-head.js';

/** Running sums of the quantities TRL's reward trainer logs. */
export class PairTotals {
  loss = 0;
  correct = 0;
  marginSum = 0;
  rewardSum = 0;
  rewardMin = Infinity;
  rewardMax = -Infinity;
  pairs = 0;

  reset(): void {
    this.loss = this.correct = this.marginSum = this.rewardSum = this.pairs = 0;
    this.rewardMin = Infinity;
    this.rewardMax = -Infinity;
  }

  /** Mean loss, accuracy (strict `>`: ties are wrong), mean margin and reward range. */
  summary(): PairMetrics {
    const pairs = Math.max(1, this.pairs);
    return {
      loss: this.loss / pairs,
      accuracy: this.correct / pairs,
      margin: this.marginSum / pairs,
      rewardMin: this.pairs === 0 ? 0 : this.rewardMin,
      rewardMean: this.rewardSum / (2 * pairs),
      rewardMax: this.pairs === 0 ? 0 : this.rewardMax,
    };
  }
}

export interface PairMetrics {
  /** Mean of weight * -log sigmoid(r_w - r_l - margin), plus the centering term when on. */
  loss: number;
  accuracy: number;
  /** Mean r_w - r_l. */
  margin: number;
  rewardMin: number;
  rewardMean: number;
  rewardMax: number;
}

/** log(1 + e^x) without overflow. */
export function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

function record(totals: PairTotals, chosen: number, rejected: number, loss: number): void {
  totals.loss += loss;
  if (chosen > rejected) totals.correct++;
  totals.marginSum += chosen - rejected;
  totals.rewardSum += chosen + rejected;
  const low = chosen < rejected ? chosen : rejected;
  const high = chosen < rejected ? rejected : chosen;
  if (low < totals.rewardMin) totals.rewardMin = low;
  if (high > totals.rewardMax) totals.rewardMax = high;
  totals.pairs++;
}

/**
 * Forward and backward over the pairs `order[start..end)` as one minibatch: adds to the head's
 * gradients the gradient of the batch objective
 * `mean(weight * -log sigmoid(r_w - r_l - margin)) + coef * mean((r_w + r_l)^2)`
 * (chosen and rejected in one batch, as TRL's `compute_loss`), and the batch to `totals`.
 * Each pair is self-contained, so activations never outlive it.
 */
export function accumulateBatchGradient(
  head: RewardHead,
  dataset: PairDataset,
  order: Uint32Array,
  start: number,
  end: number,
  centerCoefficient: number,
  totals: PairTotals,
): void {
  const { matrix, winner, loser, weight, margin } = dataset;
  const { rowStart, indices, values } = matrix;
  const scale = 1 / (end - start);
  for (let position = start; position < end; position++) {
    const pair = order[position]!;
    const winnerRow = winner[pair]!;
    const loserRow = loser[pair]!;
    const winnerStart = rowStart[winnerRow]!;
    const winnerEnd = rowStart[winnerRow + 1]!;
    const loserStart = rowStart[loserRow]!;
    const loserEnd = rowStart[loserRow + 1]!;
    const chosen = head.forward(indices, values, winnerStart, winnerEnd, 0);
    const rejected = head.forward(indices, values, loserStart, loserEnd, 1);
    const difference = chosen - rejected - margin[pair]!;
    const pairWeight = weight[pair]!;
    const sum = chosen + rejected;
    record(totals, chosen, rejected, pairWeight * softplus(-difference) + centerCoefficient * sum * sum);
    // d/dd softplus(-d) = -sigmoid(-d); the centering term adds 2 coef (r_w + r_l) to both sides.
    const logistic = -pairWeight / (1 + Math.exp(difference));
    const centering = 2 * centerCoefficient * sum;
    head.backward(indices, values, winnerStart, winnerEnd, 0, scale * (logistic + centering));
    head.backward(indices, values, loserStart, loserEnd, 1, scale * (-logistic + centering));
  }
}

/** Scores the pairs listed in `pairIndices` without touching gradients and sums them into `totals`. */
export function evaluatePairTotals(head: RewardHead, dataset: PairDataset, pairIndices: Uint32Array, centerCoefficient: number, totals: PairTotals): void {
  const { matrix, winner, loser, weight, margin } = dataset;
  const { rowStart, indices, values } = matrix;
  for (let position = 0; position < pairIndices.length; position++) {
    const pair = pairIndices[position]!;
    const chosen = head.score(indices, values, rowStart[winner[pair]!]!, rowStart[winner[pair]! + 1]!);
    const rejected = head.score(indices, values, rowStart[loser[pair]!]!, rowStart[loser[pair]! + 1]!);
    const sum = chosen + rejected;
    record(totals, chosen, rejected, weight[pair]! * softplus(-(chosen - rejected - margin[pair]!)) + centerCoefficient * sum * sum);
  }
}
