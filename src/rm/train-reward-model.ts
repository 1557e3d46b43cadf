import type { EventSink, Pair, PairSplit, ProgressEvent } from '../core/index.js';
import { defaultBlockCatalog, type BlockCatalog } from '../plan/index.js';
import { parseBtConfig, type BtConfig, type BtConfigInput } from './bt-config.js';
import { trainBradleyTerry, type BtTrainingResult, type BtTrainOptions, type EpochEndEvent } from './bt-trainer.js';
import { trainBootstrapHeads } from './bootstrap-heads.js';
import { calibratedProbability, fitPlatt, type PlattCalibration } from './calibration.js';
import { trainCostHead, type CostHeadReport, type PlanOutcome } from './cost-head.js';
import { probabilityCalibrationError } from './eval/calibration-error.js';
import { btTrainingKey, loadBtTrainingState, saveBtTrainingState } from './bt-training-state.js';
import { formatEncoderSpec, type EncoderSpec } from './features/encoder-spec.js';
import { FeaturePipeline, type FeaturePipelineOptions } from './features/feature-pipeline.js';
import { analyzePlan } from './features/plan-analysis.js';
import { fitPopularity } from './features/routing-encoders.js';
import { createHead } from './heads/create-head.js';
import type { RewardHead } from './heads/reward-head.js';
import { encodePairs, splitIndices, type PairDataset } from './pair-dataset.js';
import { DEFAULT_TEMPLATE_MARGIN, estimateReadingGain } from './reading-gain.js';
import { replaySampleSwitches } from './sample-switching.js';
import { trainTemplateRouter, type TemplateRouter, type TemplateRouterReport } from './template-router.js';
import { TrainedRewardModel } from './trained-reward-model.js';

/**
 * What reward-model training reports: `rm-training-resume` before training (with `resume`),
 * progress of the encoding pass (stage `encoding pairs`), `epoch-end` after every epoch and
 * `tuning-trial-end` after each hyperparameter trial.
 */
export type RmTrainingEvent =
  | ProgressEvent
  | EpochEndEvent
  | { type: 'rm-training-resume'; /** Epochs taken from `stateFile`; 0: none, training starts from scratch. */ epochsDone: number }
  | { type: 'tuning-trial-end'; trial: TuningTrial };

export interface TrainRewardModelOptions extends Omit<BtTrainOptions, 'resume' | 'onEpochState' | 'events'> {
  /** Resume state written after every epoch (atomically); the caller removes it when done. With tuning, one file per trial (`<stateFile>.trial-<k>`). */
  stateFile?: string;
  /** Continue from `stateFile` when it exists (it must match the pairs and config). */
  resume?: boolean;
  /** Endpoint and cache of embedding features. */
  features?: FeaturePipelineOptions;
  catalog?: BlockCatalog;
  events?: EventSink<RmTrainingEvent>;
  /** @default 'orchrm-bt-<head kind>' */
  name?: string;
  /**
   * Executed plans of the pairs' tasks (`loadPlanOutcomes`): their execution tokens train the
   * cost head, and the graded ones of the train split calibrate the score into a success
   * probability. Test-split outcomes are never read. Graded template episodes among them train
   * the template router (`trainTemplateRouter`). @default none: no cost head, no calibration, no router
   */
  planOutcomes?: readonly PlanOutcome[];
  /**
   * Texts of tasks outside the test split that no plan outcome covers, run or not (`loadTaskTexts`):
   * the template router counts names in them too. Test-split texts are never read. @default none
   */
  taskTexts?: readonly { question: string; split: PairSplit }[];
  /** Train the template router when the plan outcomes hold graded template episodes. @default true */
  templateRouter?: boolean;
}

/** The calibration a model file records beside its Platt parameters (`metrics.calibration`). */
export interface CalibrationSummary extends PlattCalibration {
  method: 'platt';
  /** Expected calibration error (10 equal bins) on the graded train-split plans it was fitted on. */
  train: { examples: number; ece: number };
  /** The same on the validation split's graded plans, never fitted on; absent when there are none. */
  validation?: { examples: number; ece: number };
}

/** One hyperparameter combination tried on the validation split. */
export interface TuningTrial {
  hashBits: number;
  l2: number;
  learningRate: number;
  /** Lowest validation loss over its epochs. */
  validationLoss: number;
  bestEpoch: number;
}

export interface TrainRewardModelResult {
  model: TrainedRewardModel;
  training: BtTrainingResult;
  /** The encoded pairs (all splits) of the chosen hashed dimension, for evaluation without re-encoding. */
  dataset: PairDataset;
  /** The configuration of the model kept: with tuning, the chosen `l2`, `learningRate` and `hashBits`; with candidates, the chosen `encoder`. */
  config: BtConfig;
  /** Every tuning trial of the kept encoder, in the order run; empty without tuning. */
  trials: TuningTrial[];
  /** Resume state files written (`stateFile`, or one per trial with tuning); remove them once the model is saved. */
  stateFiles: string[];
  /** With `config.encoderCandidates`: every candidate's validation figures and the one kept. */
  encoderChoice?: EncoderChoice;
}

/** One candidate encoder's result in an encoder choice (`BtConfig.encoderCandidates`). */
export interface EncoderTrial {
  /** The spec, as `formatEncoderSpec` writes it. */
  encoder: string;
  /** Strict accuracy (a tie is wrong) on the validation split's valid-vs-valid outcome pairs; null without such pairs. */
  validVsValidAccuracy: number | null;
  /** Lowest validation loss of its kept head (over every validation pair). */
  validationLoss: number;
}

/** How the encoder was chosen: every candidate, on what, and the one kept. */
export interface EncoderChoice {
  by: 'validation valid-vs-valid accuracy' | 'validation loss (no valid-vs-valid outcome pairs in the validation split)';
  /** Validation pairs of source `outcome` whose two plans are both valid. */
  validVsValidPairs: number;
  candidates: EncoderTrial[];
  chosen: string;
}

/**
 * Encodes the pairs and trains a Bradley-Terry reward model on their `train` split, with early
 * stopping on `validation` (`test` pairs are encoded but never trained on). With `config.tune`
 * (the default) it trains one head per hyperparameter combination and keeps the one with the
 * lowest validation loss. With `config.encoderCandidates` it does that for each candidate encoder
 * and keeps the encoder whose model ranks the validation split's valid-vs-valid outcome pairs best
 * (`EncoderChoice`, recorded in the model's metrics). With `config.ensembleSize` it then trains
 * that many bootstrap heads with the chosen encoder and hyperparameters (`trainBootstrapHeads`):
 * the model's uncertainty.
 *
 * @example
 * const { model, training } = await trainRewardModel(pairs, { head: { kind: 'mlp' }, seed: 1 }, { events: printEpoch });
 */
export async function trainRewardModel(pairs: readonly Pair[], configInput: BtConfigInput = {}, options: TrainRewardModelOptions = {}): Promise<TrainRewardModelResult> {
  const config = parseBtConfig(configInput);
  const candidates = config.encoderCandidates;
  let chosen: TrainedEncoder;
  let encoderChoice: EncoderChoice | undefined;
  const stateFiles: string[] = [];
  if (candidates === undefined) {
    chosen = await trainWithEncoder(pairs, config, options, options.stateFile, stateFiles);
  } else {
    const validVsValid = validationValidVsValid(pairs, options.catalog ?? defaultBlockCatalog());
    const trained: { result: TrainedEncoder; trial: EncoderTrial }[] = [];
    for (const [index, encoder] of candidates.entries()) {
      const stateFile = options.stateFile === undefined ? undefined : `${options.stateFile}.encoder-${index}`;
      const result = await trainWithEncoder(pairs, { ...config, encoder }, options, stateFile, stateFiles);
      const accuracy = validVsValid.length === 0 ? null : pairAccuracy(result.head, result.dataset, validVsValid);
      trained.push({ result, trial: { encoder: formatEncoderSpec(encoder), validVsValidAccuracy: accuracy, validationLoss: result.validationLoss } });
    }
    // Strictly better only: the first listed candidate wins a tie.
    const better = (a: EncoderTrial, b: EncoderTrial) => (validVsValid.length === 0 ? a.validationLoss < b.validationLoss : a.validVsValidAccuracy! > b.validVsValidAccuracy!);
    const best = trained.reduce((kept, entry) => (better(entry.trial, kept.trial) ? entry : kept));
    chosen = best.result;
    encoderChoice = {
      by: validVsValid.length === 0 ? 'validation loss (no valid-vs-valid outcome pairs in the validation split)' : 'validation valid-vs-valid accuracy',
      validVsValidPairs: validVsValid.length,
      candidates: trained.map((entry) => entry.trial),
      chosen: best.trial.encoder,
    };
  }
  const { encoder: _encoder, head: _head, ...trainingConfig } = chosen.config;
  options.signal?.throwIfAborted();
  const ensemble = config.ensembleSize > 0 ? trainBootstrapHeads(chosen.dataset, chosen.config, config.ensembleSize) : [];
  const outcomes = options.planOutcomes?.filter((outcome) => outcome.split !== 'test') ?? [];
  const catalog = options.catalog ?? defaultBlockCatalog();
  const cost = outcomes.length === 0 ? undefined : await trainCostHead(chosen.pipeline, (text) => analyzePlan(text, catalog), outcomes, { seed: config.seed }, options.signal);
  const calibration = await calibrate(new TrainedRewardModel(chosen.pipeline, chosen.head, { catalog }), outcomes);
  const routed = options.templateRouter === false ? undefined : trainTemplateRouter(outcomes, options.taskTexts);
  const modelOf = (templateRouter: TemplateRouter | undefined) => new TrainedRewardModel(chosen.pipeline, chosen.head, {
    ensemble: ensemble.map((member) => member.head),
    ...(templateRouter !== undefined && { templateRouter }),
    ...(cost !== undefined && { costHead: cost.head }),
    ...(calibration !== undefined && { calibration: { slope: calibration.slope, intercept: calibration.intercept } }),
    ...(options.name ? { name: options.name } : {}),
    ...(options.catalog ? { catalog: options.catalog } : {}),
    provenance: {
      trainingDataHash: chosen.dataset.dataHash,
      seed: config.seed,
      trainingConfig,
      metrics: {
        history: chosen.training.history,
        bestEpoch: chosen.training.bestEpoch,
        stoppedEarly: chosen.training.stoppedEarly,
        tuning: chosen.tuning ?? (config.tune === false ? 'off' : 'no validation pairs: trained once with the given l2 and learning rate'),
        ...(encoderChoice !== undefined && { encoderChoice }),
        ...(ensemble.length > 0 && { ensemble: ensemble.map((member) => ({ bestEpoch: member.training.bestEpoch, tasksDrawn: member.tasksDrawn, validationLoss: member.training.history[member.training.bestEpoch - 1]?.validation?.loss ?? null })) }),
        ...(cost !== undefined && { cost: cost.report satisfies CostHeadReport }),
        ...(calibration !== undefined && { calibration }),
        ...(routed !== undefined && {
          templateRouter: {
            ...routed.report,
            ...(templateRouter?.data.readingGain !== undefined && { readingGain: templateRouter.data.readingGain }),
            ...(templateRouter?.data.sampleSwitching !== undefined && { sampleSwitching: templateRouter.data.sampleSwitching }),
          } satisfies TemplateRouterReport,
        }),
      },
    },
  });
  // The reading gain and the sample switches replay selection with the finished model, so the
  // router gains them afterwards (that model is not closed: it shares its feature pipeline with the one returned).
  let router = routed?.router;
  if (router !== undefined) {
    const replayed = modelOf(router);
    const readingGain = await estimateReadingGain(replayed, router, outcomes, DEFAULT_TEMPLATE_MARGIN, options.signal);
    const sampleSwitching = await replaySampleSwitches(replayed, router, outcomes, DEFAULT_TEMPLATE_MARGIN, options.signal);
    router = (readingGain === undefined ? router : router.withReadingGain(readingGain)).withSampleSwitching(sampleSwitching);
  }
  const model = modelOf(router);
  return { model, training: chosen.training, dataset: chosen.dataset, config: chosen.config, trials: chosen.tuning ?? [], stateFiles, ...(encoderChoice !== undefined && { encoderChoice }) };
}

/** A head trained with one encoder (tuned or not), before bootstrap heads. */
interface TrainedEncoder {
  pipeline: FeaturePipeline;
  dataset: PairDataset;
  head: RewardHead;
  training: BtTrainingResult;
  /** The configuration kept (`encoderCandidates` dropped: the encoder is chosen). */
  config: BtConfig;
  /** Every tuning trial; undefined when nothing was tuned. */
  tuning: TuningTrial[] | undefined;
  validationLoss: number;
}

/** Encodes the pairs with `config.encoder` and trains one head, or with tuning one per trial and keeps the lowest validation loss. */
async function trainWithEncoder(pairs: readonly Pair[], configWithCandidates: BtConfig, options: TrainRewardModelOptions, baseStateFile: string | undefined, stateFiles: string[]): Promise<TrainedEncoder> {
  const { encoderCandidates: _candidates, ...unfitted } = configWithCandidates;
  const config: BtConfig = { ...unfitted, encoder: fitEncoderSpec(unfitted.encoder, pairs) };
  const encode = async (hashBits: number) => {
    const pipeline = new FeaturePipeline({ ...config.encoder, hashBits }, options.features);
    const dataset = await encodePairs(pairs, pipeline, {
      ...(options.catalog ? { catalog: options.catalog } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.events ? { events: options.events } : {}),
    });
    return { pipeline, dataset };
  };
  const trainOne = (pipeline: FeaturePipeline, dataset: PairDataset, trialConfig: BtConfig, stateFile: string | undefined) => {
    const head = createHead(trialConfig.head, pipeline.dimension, trialConfig.seed);
    const key = btTrainingKey(dataset.dataHash, trialConfig);
    const resume = stateFile !== undefined && options.resume === true ? loadBtTrainingState(stateFile, key) : undefined;
    if (options.resume) options.events?.({ type: 'rm-training-resume', epochsDone: resume?.epoch ?? 0 });
    const training = trainBradleyTerry(dataset, head, trialConfig, {
      ...(options.events && { events: options.events }),
      ...(options.signal && { signal: options.signal }),
      ...(resume && { resume }),
      ...(stateFile !== undefined && { onEpochState: (state) => saveBtTrainingState(stateFile, state, key) }),
    });
    return { head, training };
  };
  const lossOf = (training: BtTrainingResult) => training.history[training.bestEpoch - 1]?.validation?.loss ?? Infinity;

  const first = await encode(config.encoder.hashBits);
  const tuning = config.tune !== false && splitIndices(first.dataset, 'validation').length > 0 ? config.tune : undefined;
  if (tuning === undefined) {
    if (baseStateFile !== undefined) stateFiles.push(baseStateFile);
    const { head, training } = trainOne(first.pipeline, first.dataset, config, baseStateFile);
    return { ...first, head, training, config, tuning: undefined, validationLoss: lossOf(training) };
  }
  const trials: TuningTrial[] = [];
  let best: TrainedEncoder | undefined;
  for (const hashBits of tuning.hashBits ?? [config.encoder.hashBits]) {
    const encoded = hashBits === config.encoder.hashBits ? first : await encode(hashBits);
    for (const l2 of tuning.l2) {
      for (const learningRate of tuning.learningRate) {
        const trialConfig: BtConfig = { ...config, encoder: { ...config.encoder, hashBits }, l2, learningRate, tune: false };
        // A finished trial's resume state holds its final state: on resume it is reloaded, not retrained.
        const stateFile = baseStateFile === undefined ? undefined : `${baseStateFile}.trial-${trials.length}`;
        if (stateFile !== undefined) stateFiles.push(stateFile);
        const { head, training } = trainOne(encoded.pipeline, encoded.dataset, trialConfig, stateFile);
        const loss = lossOf(training);
        const trial: TuningTrial = { hashBits, l2, learningRate, validationLoss: loss, bestEpoch: training.bestEpoch };
        trials.push(trial);
        options.events?.({ type: 'tuning-trial-end', trial });
        if (best === undefined || loss < best.validationLoss) best = { ...encoded, head, training, config: trialConfig, tuning: trials, validationLoss: loss };
      }
    }
  }
  return best!;
}

/**
 * The validation split's valid-vs-valid outcome pairs (source `outcome`, both plans parse and
 * validate against the catalog), as indices into `pairs`: the pairs an encoder is chosen on. The
 * dataset built from the same pairs keeps their order, so the indices address its pairs too.
 */
function validationValidVsValid(pairs: readonly Pair[], catalog: BlockCatalog): Uint32Array {
  const validity = new Map<string, boolean>();
  const isValid = (planText: string) => {
    let valid = validity.get(planText);
    if (valid === undefined) validity.set(planText, (valid = analyzePlan(planText, catalog).plan !== undefined));
    return valid;
  };
  const indices: number[] = [];
  pairs.forEach((pair, index) => {
    if (pair.split === 'validation' && pair.source === 'outcome' && isValid(pair.winner.planText) && isValid(pair.loser.planText)) indices.push(index);
  });
  return Uint32Array.from(indices);
}

/** Strict pairwise accuracy (a tie is wrong, as in `outcomePairAccuracy`) of a head over some of a dataset's pairs. */
function pairAccuracy(head: RewardHead, dataset: PairDataset, pairIndices: Uint32Array): number {
  const { rowStart, indices, values } = dataset.matrix;
  const score = (row: number) => head.score(indices, values, rowStart[row]!, rowStart[row + 1]!);
  let correct = 0;
  for (const pair of pairIndices) if (score(dataset.winner[pair]!) > score(dataset.loser[pair]!)) correct += 1;
  return correct / pairIndices.length;
}

/**
 * Platt scaling of the model's score on the graded plans of the train split, with its expected
 * calibration error there and on the validation split; undefined when the train split holds no
 * graded plan, or only correct or only incorrect ones (nothing to calibrate against).
 */
async function calibrate(model: TrainedRewardModel, outcomes: readonly PlanOutcome[]): Promise<CalibrationSummary | undefined> {
  const graded = (split: 'train' | 'validation') => outcomes.filter((outcome) => outcome.split === split && outcome.correct !== undefined);
  const scoresOf = async (list: readonly PlanOutcome[]) => {
    const byQuestion = new Map<string, number[]>();
    list.forEach((outcome, index) => {
      const indices = byQuestion.get(outcome.question);
      if (indices === undefined) byQuestion.set(outcome.question, [index]);
      else indices.push(index);
    });
    const scores = new Float64Array(list.length);
    for (const [question, indices] of byQuestion) {
      const taskScores = await model.score(question, indices.map((index) => list[index]!.planText));
      indices.forEach((index, position) => (scores[index] = taskScores[position]!));
    }
    return scores;
  };
  const train = graded('train');
  const correct = train.map((outcome) => outcome.correct === true);
  if (!correct.includes(true) || !correct.includes(false)) return undefined;
  const trainScores = await scoresOf(train);
  const platt = fitPlatt(trainScores, correct);
  const eceOf = (scores: Float64Array, list: readonly PlanOutcome[]) =>
    probabilityCalibrationError(
      Array.from(scores, (score) => calibratedProbability(platt, score)),
      list.map((outcome) => outcome.correct === true),
    ).ece;
  const validation = graded('validation');
  return {
    method: 'platt',
    ...platt,
    train: { examples: train.length, ece: eceOf(trainScores, train) },
    ...(validation.length > 0 && { validation: { examples: validation.length, ece: eceOf(await scoresOf(validation), validation) } }),
  };
}

/**
 * The spec with the statistics its encoders learn from the training data filled in: a
 * `popularity` item gets the table of its train split's task texts (`fitPopularity`), replacing
 * any table the spec held, as training replaces weights. No grade is read.
 */
export function fitEncoderSpec(spec: EncoderSpec, pairs: readonly Pair[]): EncoderSpec {
  if (!spec.features.some((feature) => feature.kind === 'popularity')) return spec;
  const table = fitPopularity(pairs.filter((pair) => (pair.split ?? 'train') === 'train').map((pair) => pair.question));
  return { ...spec, features: spec.features.map((feature) => (feature.kind === 'popularity' ? { kind: 'popularity', table } : feature)) };
}
