import { basename, resolve } from 'node:path';
import { type EventSink, type Pair, UserError } from '../core/index.js';
import { insertModel, type RunRecord, type Store } from '../store/index.js';
import { loadPlanOutcomes, loadTaskTexts, loadTrainingPairs } from './eval/index.js';
import { formatEncoderSpec } from './features/encoder-spec.js';
import type { BtConfigInput } from './bt-config.js';
import { saveRewardModel } from './model-file.js';
import { trainRewardModel, type RmTrainingEvent, type TrainRewardModelOptions, type TrainRewardModelResult } from './train-reward-model.js';
import type { TrainedRewardModel, TrainingSource, TrainingWorld } from './trained-reward-model.js';

/*
 * A reward model trained on a pair dataset of the store, and kept there: where the dataset came
 * from, the model's registration in the `models` table, and the whole round from stored pairs to
 * a registered model file.
 */

/** Training's events, after `training-pairs-loaded`: the pairs trained on (the dataset without its test split), before training starts. */
export type StoredRmTrainingEvent = RmTrainingEvent | { type: 'training-pairs-loaded'; datasetId: string; pairs: number };

export interface TrainStoredRewardModelOptions extends Omit<TrainRewardModelOptions, 'events'> {
  /** The model file to write. */
  out: string;
  events?: EventSink<StoredRmTrainingEvent>;
}

export interface TrainStoredRewardModelResult extends TrainRewardModelResult {
  /** The model's id in the store's `models` table. */
  id: string;
  /** The pairs it was trained on (train and validation splits). */
  pairs: Pair[];
}

/**
 * Trains a reward model on a stored pair dataset and keeps it: drops the test pairs, trains
 * (`trainRewardModel`, with the dataset's executed plans as `planOutcomes` for the cost head and
 * the calibration), records the dataset and the worlds it came from in the model's
 * provenance (so `rm eval` finds its held-out split and `bon` can warn when the model is used
 * on another world), saves the model file and registers it in the store.
 *
 * @example
 * const { model, id } = await trainStoredRewardModel(store, datasetId, { seed: 1 }, { out: 'rm.safetensors' });
 */
export async function trainStoredRewardModel(store: Store, datasetId: string, config: BtConfigInput, options: TrainStoredRewardModelOptions): Promise<TrainStoredRewardModelResult> {
  const { out, ...trainOptions } = options;
  const pairs = loadTrainingPairs(store, datasetId);
  if (!pairs.some((pair) => pair.split === 'train' || pair.split === undefined)) throw new UserError(`pair dataset ${datasetId} has no training pairs; mine more episodes or change its split fractions`);
  options.events?.({ type: 'training-pairs-loaded', datasetId, pairs: pairs.length });
  const trained = await trainRewardModel(pairs, config, { planOutcomes: loadPlanOutcomes(store, datasetId), taskTexts: loadTaskTexts(store, datasetId), ...trainOptions });
  const { model } = trained;
  model.provenance.metrics = { ...model.provenance.metrics, datasetId };
  model.provenance.trainedOn = trainingSource(store, datasetId);
  await saveRewardModel(model, out);
  const id = registerRewardModel(store, model, out);
  return { ...trained, id, pairs };
}

/**
 * Where a pair dataset came from: the scenarios and task files of the collection runs its pairs'
 * episodes belong to, or the file its pairs were imported from.
 *
 * @example
 * trainingSource(store, 'ds_3f2a') // { datasetId: 'ds_3f2a', worlds: [{ kind: 'scenario', scenario: 'default' }] }
 */
export function trainingSource(store: Store, datasetId: string): TrainingSource {
  const worlds = new Map<string, TrainingWorld>();
  const add = (world: TrainingWorld) => worlds.set(JSON.stringify(world), world);
  const dataset = store.listPairDatasets().find((record) => record.id === datasetId);
  if (dataset?.kind === 'imported' && typeof dataset.config.file === 'string') add({ kind: 'imported', file: basename(dataset.config.file) });
  for (const run of store.runsOfPairDataset(datasetId)) {
    const world = worldOfRun(run);
    if (world !== undefined) add(world);
  }
  return { datasetId, worlds: [...worlds.values()] };
}

/** The world a collection run drew its tasks from, read from its recorded configuration. */
export function worldOfRun(run: Pick<RunRecord, 'config'>): TrainingWorld | undefined {
  const { config } = run;
  const scenario = config.scenario;
  if (typeof scenario === 'string') return { kind: 'scenario', scenario };
  if (typeof scenario === 'object' && scenario !== null && typeof (scenario as { name?: unknown }).name === 'string') {
    return { kind: 'scenario', scenario: (scenario as { name: string }).name };
  }
  if (typeof config.tasksFile === 'string') return { kind: 'task-file', suite: typeof config.suite === 'string' ? config.suite : 'jsonl', file: basename(config.tasksFile) };
  return undefined;
}

/**
 * Registers a saved model file in the store's `models` table (kind `bt-<head>`), with its
 * encoder spec, head config, training-data hash, seed and metrics; returns the record id.
 *
 * @example
 * await saveRewardModel(model, out); registerRewardModel(store, model, out);
 */
export function registerRewardModel(store: Store, model: TrainedRewardModel, path: string, id?: string): string {
  const { trainingDataHash, seed, metrics } = model.provenance;
  return insertModel(store, {
    ...(id ? { id } : {}),
    path: resolve(path),
    kind: `bt-${model.head.config.kind}`,
    metadata: { name: model.name, encoder: formatEncoderSpec(model.pipeline.spec), head: model.head.config, trainingDataHash, seed, metrics },
  });
}
