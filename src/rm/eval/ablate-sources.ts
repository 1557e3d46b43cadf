import { deriveSeed, type Pair, UserError } from '../../core/index.js';
import type { BtConfigInput } from '../bt-config.js';
import type { FeaturePipelineOptions } from '../features/feature-pipeline.js';
import { trainRewardModel } from '../train-reward-model.js';
import { validPairsDifference, type PairedAccuracyDifference } from './compare-to-baseline.js';
import { scoreHeldOut, summarizeScores, type EvaluationData } from './evaluate-model.js';
import type { OutcomePairAccuracy } from './outcome-pairs.js';

/** Most sources an ablation takes: 2^6 - 1 = 63 models. */
export const MAX_ABLATION_SOURCES = 6;

/** One subset of sources: the model trained on its pairs and how it did on the held-out outcome pairs. */
export interface AblationRow {
  sources: string[];
  trainingPairs: number;
  outcomePairs: OutcomePairAccuracy;
  /** This subset's model minus the model trained on every source, on the valid-vs-valid outcome pairs. */
  versusAll?: PairedAccuracyDifference;
}

export interface AblationReport {
  /** Sources present in the training pairs, sorted. */
  sources: string[];
  /** One row per non-empty subset, largest first, then in source order. */
  rows: AblationRow[];
  /** The subset with the highest valid-vs-valid accuracy. */
  best: string[];
}

export interface AblateSourcesOptions {
  /** Training configuration of every model. */
  config?: BtConfigInput;
  features?: FeaturePipelineOptions;
  /** Seed of the bootstraps. @default 0 */
  seed?: number;
  /** Called when a subset's model has been trained and scored. */
  onSubsetEnd?: (row: AblationRow, done: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * Source ablation: trains one reward model on the pairs of every non-empty subset of the sources
 * present (train and validation splits; pair weights as mined), and scores each on the same
 * held-out outcome pairs (valid-vs-valid and valid-vs-invalid), each subset against the model of
 * every source with a paired bootstrap over tasks. Says which subset is best, so that adding a
 * source can be seen to help or hurt.
 *
 * @example
 * const report = await ablateSources(trainingPairs, loadEvaluationData(store, { datasetId }), { config: { seed: 1 } });
 */
export async function ablateSources(pairs: readonly Pair[], data: EvaluationData, options: AblateSourcesOptions = {}): Promise<AblationReport> {
  const { seed = 0 } = options;
  const sources = [...new Set(pairs.map((pair) => pair.source))].sort();
  if (sources.length === 0) throw new UserError('no training pairs to ablate; mine pairs first');
  if (sources.length > MAX_ABLATION_SOURCES) throw new UserError(`${sources.length} sources would make ${2 ** sources.length - 1} models; ablate at most ${MAX_ABLATION_SOURCES} (filter the pairs by source first)`);
  if (data.episodes.length === 0) throw new UserError('the held-out split has no graded episodes, so there are no outcome pairs to judge the models on; mine from graded episodes');
  const subsets: string[][] = [];
  for (let mask = (1 << sources.length) - 1; mask > 0; mask--) subsets.push(sources.filter((_, index) => (mask & (1 << index)) !== 0));
  subsets.sort((a, b) => b.length - a.length);
  const rows: AblationRow[] = [];
  let all: Awaited<ReturnType<typeof scoreHeldOut>> | undefined;
  for (const subset of subsets) {
    options.signal?.throwIfAborted();
    const chosen = pairs.filter((pair) => subset.includes(pair.source));
    // Judged on their scores alone: no bootstrap heads.
    const { model } = await trainRewardModel(chosen, { ...options.config, ensembleSize: 0 }, {
      name: `sources:${subset.join('+')}`,
      ...(options.features && { features: options.features }),
      ...(options.signal && { signal: options.signal }),
    });
    try {
      const scores = await scoreHeldOut(model, data, { seed });
      all ??= scores;
      const row: AblationRow = { sources: subset, trainingPairs: chosen.length, outcomePairs: summarizeScores(model.name, data, scores, { seed }).episodes.outcomePairs };
      if (subset.length < sources.length) {
        const versusAll = validPairsDifference(data, scores, all, deriveSeed(seed, `ablation:${subset.join('+')}`));
        if (versusAll !== undefined) row.versusAll = versusAll;
      }
      rows.push(row);
      options.onSubsetEnd?.(row, rows.length, subsets.length);
    } finally {
      model.close();
    }
  }
  const best = rows.reduce((top, row) => (row.outcomePairs.validVsValid.accuracy > top.outcomePairs.validVsValid.accuracy ? row : top), rows[0]!);
  return { sources, rows, best: best.sources };
}

/** The ablation as a text table: accuracy on each kind of outcome pair, and the difference from every source. */
export function formatAblationReport(report: AblationReport): string {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const signed = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}`;
  const header = ['sources', 'pairs', 'valid-vs-valid [95% CI]', 'valid-vs-invalid', 'minus every source [95% CI]'];
  const lines = report.rows.map((row) => [
    row.sources.join('+') + (row.sources.join('+') === report.best.join('+') ? ' (best)' : ''),
    String(row.trainingPairs),
    `${percent(row.outcomePairs.validVsValid.accuracy)} [${percent(row.outcomePairs.validVsValid.ci.low)}, ${percent(row.outcomePairs.validVsValid.ci.high)}]`,
    percent(row.outcomePairs.validVsInvalid.accuracy),
    row.versusAll === undefined ? '' : `${signed(row.versusAll.difference)} [${signed(row.versusAll.ci.low)}, ${signed(row.versusAll.ci.high)}]`,
  ]);
  const widths = header.map((cell, column) => Math.max(cell.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: readonly string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  const validPairs = report.rows[0]?.outcomePairs.validVsValid.total ?? 0;
  return `source ablation: one model per subset of ${report.sources.join(', ')}, judged on ${validPairs} held-out valid-vs-valid outcome pairs\n${[format(header), ...lines.map(format)].join('\n')}\n`;
}
