import { UserError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { Adam } from './adam.js';
import type { BtConfig } from './bt-config.js';
import type { BtTrainingState } from './bt-training-state.js';
import { accumulateBatchGradient, evaluatePairTotals, PairTotals, type PairMetrics } from './bt-loss.js';
import type { ParameterArray, RewardHead } from './heads/reward-head.js';
import { splitIndices, type PairDataset } from './pair-dataset.js';

/** What is logged after each epoch (and passed to `onProgress`). */
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

export interface BtTrainOptions {
  /** Called after every epoch; the CLI prints it on stderr. */
  onProgress?: (log: EpochLog) => void;
  signal?: AbortSignal;
  /** State after an earlier run's epoch (`onEpochState`); training continues after that epoch. */
  resume?: BtTrainingState;
  /** Called after every epoch with everything needed to resume after it (write it to disk). */
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
 * const result = trainBradleyTerry(dataset, head, config, { onProgress: (log) => console.error(log) });
 */
export function trainBradleyTerry(dataset: PairDataset, head: RewardHead, config: BtConfig, options: BtTrainOptions = {}): BtTrainingResult {
  const { onProgress, signal, resume } = options;
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
    onProgress?.(log);
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
