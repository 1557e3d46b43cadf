import { resolve } from 'node:path';
import { insertModel } from '../store/model-store.js';
import type { Store } from '../store/index.js';
import { formatEncoderSpec } from './features/encoder-spec.js';
import type { TrainedRewardModel } from './trained-reward-model.js';

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
