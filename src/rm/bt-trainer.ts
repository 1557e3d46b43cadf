import { type EventSink, Rng, UserError } from '../core/index.js';
import { Adam } from './adam.js';
import type { BtConfig } from './bt-config.js';
import type { BtTrainingState } from './bt-training-state.js';
import type { ParameterArray, RewardHead } from './heads/reward-head.js';
import { splitIndices, type PairDataset } from './pair-dataset.js';

// The Bradley-Terry loss: forward, backward and the metrics TRL's reward trainer logs.

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

// The training loop.

/** What is logged after each epoch (and sent as an `epoch-end` event). */
export interface EpochLog {
  /** 1-based. */
  epoch: number;
  /** Metrics of the training minibatches as they were seen during the epoch. */
  train: PairMetrics;
  /** Metrics on the validation split after the epoch; absent without validation pairs. */
  validation?: PairMetrics;
  /** Step size at the epoch's last update. */
  learningRate: number;
  /** @unit milliseconds */
  durationMs: number;
}

export interface BtTrainingResult {
  history: EpochLog[];
  /** Epoch whose parameters the head holds (best validation loss, else the last). */
  bestEpoch: number;
  stoppedEarly: boolean;
  /** Optimiser steps taken. */
  steps: number;
  trainPairs: number;
  validationPairs: number;
}

/** Sent after every epoch of Bradley-Terry training. */
export interface EpochEndEvent {
  type: 'epoch-end';
  log: EpochLog;
}

export interface BtTrainOptions {
  /** An `epoch-end` event after every epoch; the CLI prints it on stderr. */
  events?: EventSink<EpochEndEvent>;
  signal?: AbortSignal;
  /** State after an earlier run's epoch (`onEpochState`); training continues after that epoch. */
  resume?: BtTrainingState;
  /** Hook (not an event; the run depends on it): called after every epoch with everything needed to resume after it (write it to disk). */
  onEpochState?: (state: BtTrainingState) => void;
}

/** In-place Fisher-Yates shuffle of a typed array with a seeded stream. */
function shuffleInPlace(order: Uint32Array, rng: Rng): void {
  for (let index = order.length - 1; index > 0; index--) {
    const other = Math.floor(rng.next() * (index + 1));
    const value = order[index]!;
    order[index] = order[other]!;
    order[other] = value;
  }
}

const copyValues = (head: RewardHead) => head.tensors.map((tensor) => tensor.values.slice());

/**
 * Trains `head` in place with the Bradley-Terry loss on the dataset's training pairs (pairs
 * without a split included), as TRL's `RewardTrainer.compute_loss`: minibatches in a seeded
 * order each epoch, Adam, optional reward centering and L2. With validation pairs it keeps the
 * parameters of the epoch with the lowest validation loss and stops after
 * `earlyStoppingPatience` epochs without improvement. Deterministic for a given seed.
 *
 * @example
 * const head = createHead(config.head, dataset.matrix.dimension, config.seed);
 * const result = trainBradleyTerry(dataset, head, config, { events: (event) => console.error(event.log) });
 */
export function trainBradleyTerry(dataset: PairDataset, head: RewardHead, config: BtConfig, options: BtTrainOptions = {}): BtTrainingResult {
  const { events, signal, resume } = options;
  const trainIndices = splitIndices(dataset, 'train');
  const validationIndices = splitIndices(dataset, 'validation');
  if (trainIndices.length === 0) throw new UserError('no training pairs (every pair is in the validation or test split); mine more pairs or re-split them');
  if (head.inputDimension !== dataset.matrix.dimension) {
    throw new UserError(`the head expects ${head.inputDimension} input features but the dataset has ${dataset.matrix.dimension}; build both from the same encoder spec`);
  }
  const center = config.centerRewardsCoefficient ?? 0;
  const adam = new Adam(head, { beta1: config.adamBeta1, beta2: config.adamBeta2, epsilon: config.adamEpsilon, l2: config.l2 });
  const rng = new Rng(config.seed).fork('bt-minibatch-order');
  const order = trainIndices.slice();
  const batchesPerEpoch = Math.ceil(order.length / config.batchSize);
  const totalSteps = batchesPerEpoch * config.maxEpochs;
  const trainTotals = new PairTotals();
  const validationTotals = new PairTotals();
  const history: EpochLog[] = resume ? resume.history.slice() : [];
  let steps = resume?.steps ?? 0;
  let bestLoss = resume?.bestLoss ?? Infinity;
  let bestEpoch = resume?.bestEpoch ?? 0;
  let bestValues: ParameterArray[] | undefined = resume?.bestValues?.map((values) => values.slice());
  let epochsWithoutImprovement = resume?.epochsWithoutImprovement ?? 0;
  let stoppedEarly = resume?.stoppedEarly ?? false;
  let learningRate = resume?.learningRate ?? config.learningRate;
  if (resume) {
    head.tensors.forEach((tensor, index) => tensor.values.set(resume.values[index]!));
    adam.restoreState(resume.adam);
    // The minibatch order is a function of the seed and the epoch: replaying the shuffles puts the stream where it was.
    for (let epoch = 1; epoch <= resume.epoch; epoch++) shuffleInPlace(order, rng);
  }
  const saveState = (epoch: number) =>
    options.onEpochState?.({ epoch, steps, learningRate, bestLoss, bestEpoch, epochsWithoutImprovement, stoppedEarly, history, values: copyValues(head), ...(bestValues && { bestValues }), adam: adam.exportState() });

  for (let epoch = (resume?.epoch ?? 0) + 1; epoch <= config.maxEpochs && !stoppedEarly; epoch++) {
    signal?.throwIfAborted();
    const startedMs = performance.now();
    shuffleInPlace(order, rng);
    trainTotals.reset();
    for (let start = 0; start < order.length; start += config.batchSize) {
      const end = Math.min(order.length, start + config.batchSize);
      head.clearGradients();
      accumulateBatchGradient(head, dataset, order, start, end, center, trainTotals);
      learningRate = config.lrSchedule === 'linear' ? config.learningRate * (1 - steps / totalSteps) : config.learningRate;
      adam.update(learningRate);
      steps++;
    }
    const log: EpochLog = { epoch, train: trainTotals.summary(), learningRate, durationMs: 0 };
    if (validationIndices.length > 0) {
      validationTotals.reset();
      evaluatePairTotals(head, dataset, validationIndices, center, validationTotals);
      log.validation = validationTotals.summary();
    }
    log.durationMs = performance.now() - startedMs;
    history.push(log);
    events?.({ type: 'epoch-end', log });
    if (log.validation === undefined) bestEpoch = epoch;
    else if (log.validation.loss < bestLoss - config.minDelta) {
      bestLoss = log.validation.loss;
      bestEpoch = epoch;
      bestValues = copyValues(head);
      epochsWithoutImprovement = 0;
    } else if (config.earlyStoppingPatience > 0 && ++epochsWithoutImprovement >= config.earlyStoppingPatience) stoppedEarly = true;
    saveState(epoch);
  }
  if (bestValues !== undefined && bestEpoch !== history.length) head.tensors.forEach((tensor, index) => tensor.values.set(bestValues![index]!));
  return { history, bestEpoch, stoppedEarly, steps, trainPairs: trainIndices.length, validationPairs: validationIndices.length };
}
