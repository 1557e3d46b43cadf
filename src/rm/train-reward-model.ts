import type { Pair } from '../core/pair.js';
import type { BlockCatalog } from '../plan/index.js';
import { parseBtConfig, type BtConfig, type BtConfigInput } from './bt-config.js';
import { trainBradleyTerry, type BtTrainingResult, type BtTrainOptions } from './bt-trainer.js';
import { btTrainingKey, loadBtTrainingState, saveBtTrainingState } from './bt-training-state.js';
import { FeaturePipeline, type FeaturePipelineOptions } from './features/feature-pipeline.js';
import { createHead } from './heads/create-head.js';
import { encodePairs, type EncodePairsOptions, type PairDataset } from './pair-dataset.js';
import { TrainedRewardModel } from './trained-reward-model.js';

export interface TrainRewardModelOptions extends Omit<BtTrainOptions, 'resume' | 'onEpochState'> {
  /** Training checkpoint written after every epoch (atomically); the caller removes it when done. */
  stateFile?: string;
  /** Continue from `stateFile` when it exists (it must match the pairs and config). */
  resume?: boolean;
  /** Called before training with the epochs taken from `stateFile` (0: none, training starts from scratch). */
  onResume?: (epochsDone: number) => void;
  /** Endpoint and cache of embedding features. */
  features?: FeaturePipelineOptions;
  catalog?: BlockCatalog;
  /** Progress of the encoding pass before training. */
  onEncodeProgress?: EncodePairsOptions['onProgress'];
  /** @default 'orchrm-bt-<head kind>' */
  name?: string;
}

export interface TrainRewardModelResult {
  model: TrainedRewardModel;
  training: BtTrainingResult;
  /** The encoded pairs (all splits), for evaluation without re-encoding. */
  dataset: PairDataset;
  config: BtConfig;
}

/**
 * Encodes the pairs and trains a Bradley-Terry reward model on their `train` split, with early
 * stopping on `validation` (`test` pairs are encoded but never trained on).
 *
 * @example
 * const { model, training } = await trainRewardModel(pairs, { head: { kind: 'mlp' }, seed: 1 }, { onProgress: printEpoch });
 */
export async function trainRewardModel(pairs: readonly Pair[], configInput: BtConfigInput = {}, options: TrainRewardModelOptions = {}): Promise<TrainRewardModelResult> {
  const config = parseBtConfig(configInput);
  const pipeline = new FeaturePipeline(config.encoder, options.features);
  const dataset = await encodePairs(pairs, pipeline, {
    ...(options.catalog ? { catalog: options.catalog } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onEncodeProgress ? { onProgress: options.onEncodeProgress } : {}),
  });
  const head = createHead(config.head, pipeline.dimension, config.seed);
  const key = btTrainingKey(dataset.dataHash, config);
  const { stateFile } = options;
  const resume = stateFile !== undefined && options.resume === true ? loadBtTrainingState(stateFile, key) : undefined;
  if (options.resume) options.onResume?.(resume?.epoch ?? 0);
  const training = trainBradleyTerry(dataset, head, config, {
    ...(options.onProgress && { onProgress: options.onProgress }),
    ...(options.signal && { signal: options.signal }),
    ...(resume && { resume }),
    ...(stateFile !== undefined && { onEpochState: (state) => saveBtTrainingState(stateFile, state, key) }),
  });
  const { encoder: _encoder, head: _head, ...trainingConfig } = config;
  const model = new TrainedRewardModel(pipeline, head, {
    ...(options.name ? { name: options.name } : {}),
    ...(options.catalog ? { catalog: options.catalog } : {}),
    provenance: {
      trainingDataHash: dataset.dataHash,
      seed: config.seed,
      trainingConfig,
      metrics: { history: training.history, bestEpoch: training.bestEpoch, stoppedEarly: training.stoppedEarly },
    },
  });
  return { model, training, dataset, config };
}
