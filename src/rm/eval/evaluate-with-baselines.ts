import type { EventSink, Pair, RewardModel } from '../../core/index.js';
import type { BtConfig } from '../bt-config.js';
import type { EpochLog } from '../bt-trainer.js';
import { planOnlySpec, type EncoderSpec } from '../features/encoder-spec.js';
import type { FeaturePipelineOptions } from '../features/feature-pipeline.js';
import { trainRewardModel, type RmTrainingEvent } from '../train-reward-model.js';
import { BASELINE_KINDS, type BaselineKind } from './compare-to-baseline.js';
import { evaluateAgainstBaselines, type BaselineReport } from './evaluate-against-baselines.js';
import type { EvaluateOptions, EvaluationData } from './evaluate-model.js';

export interface EvaluateWithBaselinesOptions extends EvaluateOptions {
  /** Pairs the baselines are trained on: the train split, with validation pairs for early stopping. */
  trainingPairs: readonly Pair[];
  /** Training configuration of the model under test (its chosen encoder); each baseline uses it with its own features. */
  config: BtConfig;
  /** Endpoint and cache of embedding features (for a plan-only baseline that keeps plan embeddings). */
  features?: FeaturePipelineOptions;
  /** A `baseline-epoch-end` event after each epoch of each baseline, for progress on stderr. */
  events?: EventSink<BaselineEpochEndEvent>;
}

/** Sent after every epoch of a baseline's training. */
export interface BaselineEpochEndEvent {
  type: 'baseline-epoch-end';
  baseline: BaselineKind;
  log: EpochLog;
}

/**
 * The encoder of each baseline, derived from the model's: `structure-only` reads no word of task
 * or plan (plan structure and plan shape only); `plan-only` drops every task feature (task
 * n-grams, task statistics, crosses, task shape, task embeddings); `length-only` reads only the
 * plan's length and node count.
 */
export function baselineEncoder(kind: BaselineKind, encoder: EncoderSpec): EncoderSpec {
  if (kind === 'structure-only') return { hashBits: encoder.hashBits, features: [{ kind: 'structure' }, { kind: 'plan-shape' }] };
  return kind === 'plan-only' ? planOnlySpec(encoder) : { hashBits: encoder.hashBits, features: [{ kind: 'length' }] };
}

/**
 * Trains the baselines (structure-only, plan-only and length-only) with the model's own training
 * configuration on the same pairs, then evaluates the models and the baselines the same way on
 * the same held-out data (`evaluateAgainstBaselines`). The report says plainly when a model does
 * not beat a baseline.
 *
 * @example
 * const report = await evaluateWithBaselines([linear, mlp], heldOut, { trainingPairs, config, seed: 1 });
 * process.stdout.write(formatBaselineReport(report));
 */
export async function evaluateWithBaselines(models: readonly RewardModel[], data: EvaluationData, options: EvaluateWithBaselinesOptions): Promise<BaselineReport> {
  // A baseline's features derive from the model's encoder; it never chooses among candidates.
  const { trainingPairs, config: { encoderCandidates: _candidates, ...config }, features, events, ...evaluateOptions } = options;
  const baselines: { kind: BaselineKind; model: RewardModel }[] = [];
  for (const kind of BASELINE_KINDS) {
    const { model } = await trainRewardModel(
      trainingPairs,
      // A baseline is compared on its scores alone: no bootstrap heads.
      { ...config, encoder: baselineEncoder(kind, config.encoder), ensembleSize: 0 },
      {
        name: `${kind}-baseline`,
        ...(features ? { features } : {}),
        ...(evaluateOptions.signal ? { signal: evaluateOptions.signal } : {}),
        ...(events && {
          events: (event: RmTrainingEvent) => {
            if (event.type === 'epoch-end') events({ type: 'baseline-epoch-end', baseline: kind, log: event.log });
          },
        }),
      },
    );
    baselines.push({ kind, model });
  }
  try {
    return await evaluateAgainstBaselines(models, baselines, data, evaluateOptions);
  } finally {
    for (const { model } of baselines) (model as { close?: () => void }).close?.();
  }
}
