import { type Pair, type PairSplit, sha256 } from '../core/index.js';
import { finishDataset, type TaskPair } from './finish-dataset.js';
import { createMiners } from './miners/create-miners.js';
import type { MinedSource, PairMiningConfig } from './mining-config.js';
import type { TaskGroup } from './mining-episode.js';
import { assignSplit } from './assign-split.js';
import { compareText } from './compare-text.js';
import { selectTaskPairs } from './select-task-pairs.js';
import { ReliabilityTally, type UnitReliability } from './source-reliability.js';
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
  /** Whether grades were kept out of mining altogether. */
  labelFree: boolean;
  /** Each source's (and process signal's) estimated reliability and the weight its pairs got. */
  reliability: UnitReliability[];
  /** `calibration` reliability: graded tasks whose grades were read for it. */
  calibrationTasks?: number;
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
  const tally = new ReliabilityTally();
  const groupList = [...groups];
  const isCalibrationTask = calibrationTaskFilter(groupList, config);
  let episodes = 0;
  let tasks = 0;
  let labelFreeTasks = 0;
  let calibrationTasks = 0;
  for (const group of groupList) {
    tasks += 1;
    episodes += group.episodes.length;
    if (!group.hasGoldAnswer) labelFreeTasks += 1;
    const calibrating = isCalibrationTask(group);
    if (calibrating) calibrationTasks += 1;
    const correctById = calibrating ? new Map(group.episodes.map((episode) => [episode.id, episode.correct])) : undefined;
    const onMined = (decisions: Parameters<ReliabilityTally['addTask']>[0]) => tally.addTask(decisions, correctById && ((id) => correctById.get(id)));
    for (const pair of selectTaskPairs(group, miners, config, reports, onMined)) selected.push({ ...pair, taskId: group.taskId, question: group.question });
  }
  const reliability = tally.estimate(config.reliability);
  const pairs = finishDataset(selected, config, datasetId, reports, reliability);
  for (const report of Object.values(reports)) {
    if (tasks > 0 && report.tasksSkipped === tasks) report.skipped = `every task was skipped: ${Object.keys(report.skipReasons).join('; ')}`;
  }
  const bySplit: Record<PairSplit, number> = { train: 0, validation: 0, test: 0 };
  for (const pair of pairs) if (pair.split !== undefined) bySplit[pair.split] += 1;
  const report: MiningReport = { datasetId, episodes, tasks, labelFreeTasks, pairs: pairs.length, bySplit, sources: reports, labelFree: config.labelFree, reliability };
  if (config.reliability.method === 'calibration') report.calibrationTasks = calibrationTasks;
  return { pairs, report };
}

/**
 * Which tasks' grades `calibration` reliability reads: graded train-split tasks (never a
 * validation or test task, so evaluation stays clean), all of them or the first
 * `calibrationTasks` by a seeded hash. None outside `calibration`.
 */
function calibrationTaskFilter(groups: readonly TaskGroup[], config: PairMiningConfig): (group: TaskGroup) => boolean {
  if (config.reliability.method !== 'calibration' || config.labelFree) return () => false;
  const eligible = groups.filter((group) => group.hasGoldAnswer && assignSplit(group.taskId, config.seed, config.splits) === 'train').map((group) => group.taskId);
  const limit = config.reliability.calibrationTasks ?? eligible.length;
  const order = (taskId: string) => sha256(`${config.seed}\u0000calibration\u0000${taskId}`);
  const chosen = new Set(eligible.sort((a, b) => compareText(order(a), order(b))).slice(0, limit));
  return (group) => chosen.has(group.taskId);
}

