import { type Pair, type PairSplit, stableId } from '../core/index.js';
import { assignSplit } from './assign-split.js';
import { compareText } from './compare-text.js';
import type { MinedSource, PairMiningConfig } from './mining-config.js';
import type { SelectedPair } from './select-task-pairs.js';
import { reliabilityUnit, type UnitReliability } from './source-reliability.js';
import type { SourceReport } from './source-report.js';

/** A selected pair with the task it belongs to. */
export interface TaskPair extends SelectedPair {
  taskId: string;
  question: string;
}

/**
 * Turns the selected pairs of every task into the dataset: drops the pairs of units whose
 * reliability weight is 0, applies `caps.perSource` (a seeded sample), balances sources by weight,
 * multiplies each pair's weight by its unit's reliability weight (then rescales to mean 1),
 * assigns each task's split, and gives every pair a stable id. Output order is by task id, then
 * source, then id, whatever order the episodes were stored in.
 */
export function finishDataset(
  pairs: readonly TaskPair[],
  config: PairMiningConfig,
  datasetId: string,
  reports: Record<MinedSource, SourceReport>,
  reliability: readonly UnitReliability[] = [],
): Pair[] {
  const unitWeight = new Map(reliability.map((entry) => [entry.unit, entry.weight]));
  const weightOf = (pair: TaskPair) => unitWeight.get(reliabilityUnit(pair.source, pair)) ?? 1;
  const bySource = new Map<MinedSource, TaskPair[]>();
  for (const pair of pairs) {
    if (weightOf(pair) === 0) {
      reports[pair.source].dropped.unreliable += 1;
      continue;
    }
    const list = bySource.get(pair.source) ?? [];
    list.push(pair);
    bySource.set(pair.source, list);
  }
  const cap = config.caps.perSource;
  for (const [source, list] of bySource) {
    if (cap !== undefined && list.length > cap) {
      reports[source].dropped.perSource += list.length - cap;
      bySource.set(source, sample(list, cap));
    }
  }
  const weights = balance(bySource, config, reports);
  const splitOfTask = new Map<string, PairSplit>();
  const splitOf = (taskId: string) => {
    let split = splitOfTask.get(taskId);
    if (split === undefined) splitOfTask.set(taskId, (split = assignSplit(taskId, config.seed, config.splits)));
    return split;
  };
  const dataset: Pair[] = [];
  for (const [source, list] of bySource) {
    reports[source].kept = list.length;
    for (const pair of list) dataset.push(toPair(pair, datasetId, (weights.get(source) ?? 1) * weightOf(pair), splitOf(pair.taskId)));
  }
  // Reliability weights keep their ratios; the dataset's mean weight stays 1, as balancing left it.
  if (reliability.some((entry) => entry.weight !== 1)) {
    const meanWeight = dataset.reduce((sum, pair) => sum + pair.weight, 0) / Math.max(1, dataset.length);
    if (meanWeight > 0) for (const pair of dataset) pair.weight /= meanWeight;
  }
  return dataset.sort((a, b) => compareText(a.taskId, b.taskId) || compareText(a.source, b.source) || compareText(a.id, b.id));
}

/**
 * Pair weight per source. `weight` mode: source s gets total weight N * w_s / sum(w) over the
 * sources present, so each source pulls with its configured share and the mean pair weight is 1.
 * `count` mode subsamples `bySource` in place to counts proportional to w_s (the scarcest source,
 * relative to its weight, sets the scale) and weights every pair 1. `none`: w_s as given.
 */
function balance(bySource: Map<MinedSource, TaskPair[]>, config: PairMiningConfig, reports: Record<MinedSource, SourceReport>): Map<MinedSource, number> {
  const { mode, sourceWeights } = config.balance;
  const present = [...bySource].filter(([, list]) => list.length > 0);
  const weightOf = (source: MinedSource) => sourceWeights[source] ?? 1;
  const weights = new Map<MinedSource, number>();
  if (mode === 'none') {
    for (const [source] of present) weights.set(source, weightOf(source));
  } else if (mode === 'weight') {
    const totalPairs = present.reduce((sum, [, list]) => sum + list.length, 0);
    const totalWeight = present.reduce((sum, [source]) => sum + weightOf(source), 0);
    for (const [source, list] of present) weights.set(source, (totalPairs * weightOf(source)) / (totalWeight * list.length));
  } else {
    const scale = Math.min(...present.map(([source, list]) => list.length / weightOf(source)));
    for (const [source, list] of present) {
      const target = Math.max(1, Math.floor(scale * weightOf(source) + 1e-9));
      if (target < list.length) {
        reports[source].dropped.balance += list.length - target;
        bySource.set(source, sample(list, target));
      }
      weights.set(source, 1);
    }
  }
  return weights;
}

/** The `count` pairs with the lowest seeded rank: a sample that depends only on the seed and the pairs. */
function sample(list: readonly TaskPair[], count: number): TaskPair[] {
  return [...list].sort((a, b) => a.rank - b.rank || compareText(a.winner.id, b.winner.id) || compareText(a.loser.id, b.loser.id)).slice(0, count);
}

function toPair(pair: TaskPair, datasetId: string, weight: number, split: PairSplit): Pair {
  return {
    id: stableId('pair', datasetId, pair.source, pair.winner.id, pair.loser.id),
    datasetId,
    taskId: pair.taskId,
    question: pair.question,
    winner: { planText: pair.winner.planText, episodeId: pair.winner.id },
    loser: { planText: pair.loser.planText, episodeId: pair.loser.id },
    source: pair.source,
    weight,
    ...(pair.margin !== undefined && { margin: pair.margin }),
    evidence: pair.evidence,
    split,
  };
}
