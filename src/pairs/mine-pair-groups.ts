import type { Pair, PairSplit } from '../core/pair.js';
import { finishDataset, type TaskPair } from './finish-dataset.js';
import { createMiners } from './miners/create-miners.js';
import type { MinedSource, PairMiningConfig } from './mining-config.js';
import type { TaskGroup } from './mining-episode.js';
import { selectTaskPairs } from './select-task-pairs.js';
import { emptySourceReport, type SourceReport } from './source-report.js';

/** What mining produced and why, per source; stored with the dataset and printed by `orchrm pairs mine`. */
export interface MiningReport {
  datasetId: string;
  episodes: number;
  tasks: number;
  /** Tasks without a gold answer: only label-free sources (checkpoint, process) can use them. */
  labelFreeTasks: number;
  pairs: number;
  bySplit: Record<PairSplit, number>;
  sources: Partial<Record<MinedSource, SourceReport>>;
}

/**
 * Mines a dataset from episodes already grouped by task: every configured miner on every task,
 * then dedup, ties, caps, balance and splits (see `selectTaskPairs`, `finishDataset`). Pure and
 * deterministic: the same groups, config and dataset id give the same pairs in the same order.
 */
export function minePairGroups(groups: Iterable<TaskGroup>, config: PairMiningConfig, datasetId: string): { pairs: Pair[]; report: MiningReport } {
  const miners = createMiners(config);
  const reports = Object.fromEntries(miners.map((miner) => [miner.source, emptySourceReport()])) as Record<MinedSource, SourceReport>;
  const selected: TaskPair[] = [];
  let episodes = 0;
  let tasks = 0;
  let labelFreeTasks = 0;
  for (const group of groups) {
    tasks += 1;
    episodes += group.episodes.length;
    if (!group.hasGoldAnswer) labelFreeTasks += 1;
    for (const pair of selectTaskPairs(group, miners, config, reports)) selected.push({ ...pair, taskId: group.taskId, question: group.question });
  }
  const pairs = finishDataset(selected, config, datasetId, reports);
  for (const report of Object.values(reports)) {
    if (tasks > 0 && report.tasksSkipped === tasks) report.skipped = `every task was skipped: ${Object.keys(report.skipReasons).join('; ')}`;
  }
  const bySplit: Record<PairSplit, number> = { train: 0, validation: 0, test: 0 };
  for (const pair of pairs) if (pair.split !== undefined) bySplit[pair.split] += 1;
  return { pairs, report: { datasetId, episodes, tasks, labelFreeTasks, pairs: pairs.length, bySplit, sources: reports } };
}
