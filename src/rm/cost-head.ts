import { deriveSeed, type PairSplit, Rng } from '../core/index.js';
import { Adam } from './adam.js';
import type { FeaturePipeline } from './features/feature-pipeline.js';
import type { PlanAnalysis } from './features/plan-analysis.js';
import { LinearHead } from './heads/linear-head.js';
import { FeatureMatrixBuilder, type FeatureMatrix } from './pair-dataset.js';

/**
 * What the cost head predicts: log(1 + execution tokens) of a plan on a task, so a plan's cost
 * is learnt as a product of factors (samples x rounds x the task's length), which a linear head
 * over the plan-shape x task-shape crosses can express. Its exponential is the prediction, after
 * a smearing correction (Duan 1983) folded into the bias, so that predictions are means of
 * tokens rather than of log tokens.
 */
export const COST_TARGET = 'log1p-execution-tokens';

/**
 * One executed plan, as the cost head, the calibration and the template router read it: its task, its plan text, the
 * execution tokens its episode spent (hidden reasoning included), whether it was correct when the
 * episode was graded, and the split of its task (by the pair dataset's split rule).
 */
export interface PlanOutcome {
  taskId: string;
  question: string;
  /** The task's suite (its benchmark or family), when the store says. */
  suite?: string;
  planText: string;
  /** The template's name when the plan was a template plan run by collection (`--template-share`), which the template router learns from. */
  template?: string;
  executionTokens: number;
  /** Undefined when the episode was not graded, or when grades may not be read (label-free). */
  correct?: boolean;
  split: PairSplit;
}

/** Settings of cost-head training (least squares on the log target, Adam, early stopping on the validation split). */
export interface CostHeadSettings {
  seed: number;
  /** @default 0.03 */
  learningRate?: number;
  /** @default 1e-6 */
  l2?: number;
  /** @default 20 */
  maxEpochs?: number;
  /** @default 64 */
  batchSize?: number;
  /** Epochs without a lower validation error before stopping. @default 3 */
  patience?: number;
}

/** How the cost head fits, on its own training examples and on the validation split's. */
export interface CostHeadReport {
  target: typeof COST_TARGET;
  /** Valid plans trained on (an invalid plan runs nothing: its cost is 0, not predicted). */
  trainExamples: number;
  validationExamples: number;
  epochs: number;
  /** exp(residual) mean on the train split, folded into the bias. */
  smearing: number;
  train: CostFit;
  /** Absent without validation examples. */
  validation?: CostFit;
}

export interface CostFit {
  /** Root mean squared error of log(1 + tokens). */
  rmseLog: number;
  /** Mean of |predicted - actual| execution tokens. */
  meanAbsoluteError: number;
  /** Mean actual execution tokens, for scale. */
  meanTokens: number;
}

/** Examples encoded per embeddings round trip. */
const ENCODE_CHUNK = 512;

/**
 * Trains a linear cost head over the reward model's features on the valid plans of the `train`
 * split (early stopping on `validation`; `test` is never read): squared error on
 * log(1 + execution tokens), the bias started at the mean target. No grade is read. Returns
 * undefined when the train split holds no valid plan.
 *
 * @example
 * const cost = await trainCostHead(pipeline, (text) => model.analyze(text), outcomes, { seed: 0 });
 */
export async function trainCostHead(
  pipeline: FeaturePipeline,
  analyze: (planText: string) => PlanAnalysis,
  outcomes: readonly PlanOutcome[],
  settings: CostHeadSettings,
  signal?: AbortSignal,
): Promise<{ head: LinearHead; report: CostHeadReport } | undefined> {
  const { learningRate = 0.03, l2 = 1e-6, maxEpochs = 20, batchSize = 64, patience = 3 } = settings;
  const train = await encodeOutcomes(pipeline, analyze, outcomes, 'train', signal);
  if (train.matrix.rowCount === 0) return undefined;
  const validation = await encodeOutcomes(pipeline, analyze, outcomes, 'validation', signal);
  const head = new LinearHead(pipeline.dimension);
  const tensors = head.tensors;
  const bias = tensors[1]!.values;
  let meanTarget = 0;
  for (const value of train.targets) meanTarget += value;
  bias[0] = meanTarget / train.targets.length;
  const adam = new Adam(head, { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, l2 });
  const rng = new Rng(deriveSeed(settings.seed, 'cost-head'));
  const order = Uint32Array.from(train.targets.keys());
  const best = tensors.map((tensor) => tensor.values.slice());
  let bestError = Number.POSITIVE_INFINITY;
  let epochs = 0;
  let sinceBest = 0;
  const { rowStart, indices, values } = train.matrix;
  for (let epoch = 1; epoch <= maxEpochs; epoch++) {
    signal?.throwIfAborted();
    epochs = epoch;
    shuffle(order, rng);
    for (let batchStart = 0; batchStart < order.length; batchStart += batchSize) {
      const batchEnd = Math.min(order.length, batchStart + batchSize);
      head.clearGradients();
      for (let position = batchStart; position < batchEnd; position++) {
        const row = order[position]!;
        const start = rowStart[row]!;
        const end = rowStart[row + 1]!;
        const residual = head.forward(indices, values, start, end) - train.targets[row]!;
        head.backward(indices, values, start, end, 0, residual / (batchEnd - batchStart));
      }
      adam.update(learningRate * (1 - (epoch - 1) / maxEpochs));
    }
    const error = rmse(head, validation.matrix.rowCount > 0 ? validation : train);
    if (error < bestError - 1e-6) {
      bestError = error;
      sinceBest = 0;
      tensors.forEach((tensor, index) => best[index]!.set(tensor.values));
    } else if (++sinceBest >= patience) break;
  }
  tensors.forEach((tensor, index) => tensor.values.set(best[index]!));
  let smearing = 0;
  for (let row = 0; row < train.targets.length; row++) smearing += Math.exp(train.targets[row]! - head.score(indices, values, rowStart[row]!, rowStart[row + 1]!));
  smearing /= train.targets.length;
  bias[0]! += Math.log(smearing);
  return {
    head,
    report: {
      target: COST_TARGET,
      trainExamples: train.matrix.rowCount,
      validationExamples: validation.matrix.rowCount,
      epochs,
      smearing,
      train: fitOf(head, train),
      ...(validation.matrix.rowCount > 0 && { validation: fitOf(head, validation) }),
    },
  };
}

/** Predicted execution tokens from the cost head's output (log(1 + tokens), smearing included). */
export function tokensFromCostScore(score: number): number {
  return Math.max(0, Math.expm1(score));
}

interface EncodedOutcomes {
  matrix: FeatureMatrix;
  /** log(1 + execution tokens) per row. */
  targets: Float64Array;
}

async function encodeOutcomes(pipeline: FeaturePipeline, analyze: (planText: string) => PlanAnalysis, outcomes: readonly PlanOutcome[], split: PairSplit, signal?: AbortSignal): Promise<EncodedOutcomes> {
  const builder = new FeatureMatrixBuilder(pipeline.dimension);
  const targets: number[] = [];
  const chosen = outcomes.filter((outcome) => outcome.split === split);
  for (let chunkStart = 0; chunkStart < chosen.length; chunkStart += ENCODE_CHUNK) {
    signal?.throwIfAborted();
    const chunk = chosen.slice(chunkStart, chunkStart + ENCODE_CHUNK).map((outcome) => ({ outcome, analysis: analyze(outcome.planText) })).filter((entry) => entry.analysis.plan !== undefined);
    if (pipeline.needsPreparation) await pipeline.prepare(chunk.map((entry) => entry.outcome.question), chunk.map((entry) => entry.analysis), signal);
    for (const { outcome, analysis } of chunk) {
      const count = pipeline.encode(pipeline.analyzeTask(outcome.question), analysis);
      builder.append(pipeline.indices, pipeline.values, count);
      targets.push(Math.log1p(Math.max(0, outcome.executionTokens)));
    }
    if (pipeline.needsPreparation) pipeline.release();
  }
  return { matrix: builder.finish(), targets: Float64Array.from(targets) };
}

function rmse(head: LinearHead, data: EncodedOutcomes): number {
  const { rowStart, indices, values } = data.matrix;
  let squares = 0;
  for (let row = 0; row < data.targets.length; row++) squares += (head.score(indices, values, rowStart[row]!, rowStart[row + 1]!) - data.targets[row]!) ** 2;
  return Math.sqrt(squares / Math.max(1, data.targets.length));
}

function fitOf(head: LinearHead, data: EncodedOutcomes): CostFit {
  const { rowStart, indices, values } = data.matrix;
  let absolute = 0;
  let actualSum = 0;
  let squares = 0;
  for (let row = 0; row < data.targets.length; row++) {
    const score = head.score(indices, values, rowStart[row]!, rowStart[row + 1]!);
    const actual = Math.expm1(data.targets[row]!);
    absolute += Math.abs(tokensFromCostScore(score) - actual);
    actualSum += actual;
    squares += (score - data.targets[row]!) ** 2;
  }
  const count = Math.max(1, data.targets.length);
  return { rmseLog: Math.sqrt(squares / count), meanAbsoluteError: absolute / count, meanTokens: actualSum / count };
}

/** Fisher-Yates in place with the seeded generator. */
function shuffle(order: Uint32Array, rng: Rng): void {
  for (let index = order.length - 1; index > 0; index--) {
    const other = Math.floor(rng.next() * (index + 1));
    const value = order[index]!;
    order[index] = order[other]!;
    order[other] = value;
  }
}
