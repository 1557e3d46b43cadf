import { z } from 'zod';
import { type Pair, type PairSplit, UserError } from '../../core/index.js';
import { assignSplit } from '../../pairs/index.js';
import { TEMPLATE_ORCHESTRATOR } from '../../collect/index.js';
import { EpisodeFilterSchema, type PairDatasetRecord, type Store } from '../../store/index.js';
import type { PlanOutcome } from '../cost-head.js';
import type { EvaluationData, HeldOutEpisode } from './evaluate-model.js';

/** The part of a mined dataset's recorded config that says which episodes and which split rule it used. */
const MinedConfigSchema = z.object({
  seed: z.number().int(),
  splits: z.object({ train: z.number(), validation: z.number(), test: z.number() }),
  filter: EpisodeFilterSchema.default({}),
  labelFree: z.boolean().default(false),
});

/**
 * The pair dataset to work on: the one named, else the most recently made one. Throws a
 * UserError that says how to get one when there is none.
 */
export function resolvePairDataset(store: Store, datasetId?: string): PairDatasetRecord {
  const datasets = store.listPairDatasets();
  if (datasetId !== undefined) {
    const found = datasets.find((dataset) => dataset.id === datasetId);
    if (found === undefined) {
      const known = datasets.map((dataset) => dataset.id).join(', ') || 'none';
      throw new UserError(`no pair dataset "${datasetId}" in ${store.path} (datasets: ${known}); mine one with orchrm pairs mine`);
    }
    return found;
  }
  const latest = datasets.at(-1);
  if (latest === undefined) throw new UserError(`${store.path} holds no pair dataset; mine pairs first with orchrm pairs mine --db ${store.path}`);
  return latest;
}

/** The pairs a model trains on: every pair of the dataset except the test split (validation pairs drive early stopping and tuning). */
export function loadTrainingPairs(store: Store, datasetId: string): Pair[] {
  return [...store.iteratePairs({ datasetId })].filter((pair) => pair.split !== 'test');
}

/** Every pair of a dataset in one split, in insertion order. */
export function loadPairs(store: Store, datasetId: string, split: PairSplit): Pair[] {
  return [...store.iteratePairs({ datasetId, split })];
}

/**
 * Held-out data of a pair dataset: its pairs in `split` (default `test`) and, for a mined
 * dataset, every graded episode with a plan among the episodes it was mined from whose task
 * falls in that split by the dataset's own split rule (seed and fractions). Graded episodes of
 * tasks that yielded no pair count too: Best-of-N is judged over all held-out tasks. An
 * imported dataset has pairs only.
 *
 * @example
 * const data = loadEvaluationData(store, { datasetId });
 * const evaluation = await evaluateRewardModel(model, data);
 */
export function loadEvaluationData(store: Store, options: { datasetId?: string; split?: PairSplit } = {}): EvaluationData & { datasetId: string } {
  const { split = 'test' } = options;
  const dataset = resolvePairDataset(store, options.datasetId);
  const pairs = loadPairs(store, dataset.id, split);
  const mined = MinedConfigSchema.safeParse(dataset.config);
  const episodes: HeldOutEpisode[] = [];
  if (dataset.kind === 'mined' && mined.success) {
    const { seed, splits, filter } = mined.data;
    for (const episode of store.iterateEpisodes(filter, { withCalls: false })) {
      if (episode.grade === undefined || episode.planText.trim() === '') continue;
      if (assignSplit(episode.task.id, seed, splits) !== split) continue;
      const valid = episode.status !== 'parse_error' && episode.status !== 'invalid_plan';
      episodes.push({ id: episode.id, taskId: episode.task.id, question: episode.task.question, planText: episode.planText, correct: episode.grade.correct, valid });
    }
  }
  return { datasetId: dataset.id, pairs, episodes };
}

/** Episodes a page of `collectionTokensByTask` reads. */
const TOKEN_PAGE = 5000;

/** A task's collection tokens by role. */
export interface TaskTokenSplit {
  orchestrator: number;
  execution: number;
  verification: number;
}

/**
 * Tokens of every episode of the collection runs a mined dataset's pairs come from (and that its
 * filter keeps), summed per task and role (orchestrator, execution and verification): what
 * collecting each task cost, whether or not it yielded pairs. Episodes of other runs in the store
 * (Best-of-N, GRPO evaluation) are not counted; when the pairs' episodes belong to no recorded run,
 * every episode the filter keeps is. An imported dataset has no episodes: the map is empty.
 *
 * @example
 * const tokens = collectionTokenSplitsByTask(store, datasetId); // Map { 'gsm8k-12' => { orchestrator: 1210, execution: 46000, verification: 1000 }, ... }
 */
export function collectionTokenSplitsByTask(store: Store, datasetId?: string): Map<string, TaskTokenSplit> {
  const dataset = resolvePairDataset(store, datasetId);
  const tokens = new Map<string, TaskTokenSplit>();
  const mined = MinedConfigSchema.safeParse(dataset.config);
  if (dataset.kind !== 'mined' || !mined.success) return tokens;
  const runs = store.runsOfPairDataset(dataset.id).filter((run) => mined.data.filter.runId === undefined || mined.data.filter.runId === run.id);
  // Episodes stored outside any collection run (imported, or written directly): the filter alone.
  const filters = runs.length === 0 ? [mined.data.filter] : runs.map((run) => ({ ...mined.data.filter, runId: run.id }));
  for (const filter of filters) {
    for (let offset = 0; ; offset += TOKEN_PAGE) {
      const page = store.listEpisodes({ ...filter, limit: TOKEN_PAGE, offset });
      for (const episode of page) {
        const { orchestrator, execution, verification } = episode.usage;
        const sum = tokens.get(episode.taskId) ?? { orchestrator: 0, execution: 0, verification: 0 };
        sum.orchestrator += orchestrator.totalTokens;
        sum.execution += execution.totalTokens;
        sum.verification += verification.totalTokens;
        tokens.set(episode.taskId, sum);
      }
      if (page.length < TOKEN_PAGE) break;
    }
  }
  return tokens;
}

/**
 * `collectionTokenSplitsByTask`, each task's roles summed: the tokens a learning curve charges a task.
 *
 * @example
 * const tokens = collectionTokensByTask(store, datasetId); // Map { 'gsm8k-12' => 48210, ... }
 */
export function collectionTokensByTask(store: Store, datasetId?: string): Map<string, number> {
  return taskTokenTotals(collectionTokenSplitsByTask(store, datasetId));
}

/** Each task's roles summed, from splits already read (`collectionTokenSplitsByTask`). */
export function taskTokenTotals(splits: ReadonlyMap<string, TaskTokenSplit>): Map<string, number> {
  const totals = new Map<string, number>();
  for (const [taskId, split] of splits) totals.set(taskId, split.orchestrator + split.execution + split.verification);
  return totals;
}

/**
 * The executed plans of a mined pair dataset's episodes, in every split but `test`, for the cost
 * head, the calibration and the template router (`trainRewardModel`'s `planOutcomes`): each
 * episode's task and suite, plan text, execution tokens, split by the dataset's own rule, the
 * template's name for a template episode, and its grade, unless the dataset was mined label-free
 * (then no grade is read and the model gets a cost head but no calibration and no router).
 * Empty for an imported dataset, which has no episodes.
 *
 * @example
 * const planOutcomes = loadPlanOutcomes(store, datasetId);
 */
export function loadPlanOutcomes(store: Store, datasetId: string): PlanOutcome[] {
  const dataset = resolvePairDataset(store, datasetId);
  const mined = MinedConfigSchema.safeParse(dataset.config);
  if (dataset.kind !== 'mined' || !mined.success) return [];
  const { seed, splits, filter, labelFree } = mined.data;
  const outcomes: PlanOutcome[] = [];
  for (const episode of store.iterateEpisodes(filter, { withCalls: false })) {
    if (episode.planText.trim() === '') continue;
    const split = assignSplit(episode.task.id, seed, splits);
    if (split === 'test') continue;
    outcomes.push({
      taskId: episode.task.id,
      question: episode.task.question,
      suite: episode.task.suite,
      planText: episode.planText,
      executionTokens: episode.usage.execution.totalTokens,
      split,
      ...(episode.orchestrator.name === TEMPLATE_ORCHESTRATOR && episode.orchestrator.checkpoint !== undefined && { template: episode.orchestrator.checkpoint }),
      ...(!labelFree && episode.grade !== undefined && { correct: episode.grade.correct }),
    });
  }
  return outcomes;
}

/** A task's text outside the test split, as the template router's popularity reads it (`loadTaskTexts`). */
export interface TaskText {
  taskId: string;
  question: string;
  suite: string;
  split: PairSplit;
}

/**
 * The texts of every task the store holds outside the dataset's test split, run or not: what the
 * template router counts names in (`trainTemplateRouter`'s `taskTexts`). Reading a text costs
 * nothing, and an active collection with a budget runs a third of the tasks it is given (docs/rm.md,
 * "Learning curves and active collection"). Only for a mined dataset of the whole store (no episode
 * filter): a filtered dataset's scope is its episodes, and then none. No grade is read.
 */
export function loadTaskTexts(store: Store, datasetId: string): TaskText[] {
  const dataset = resolvePairDataset(store, datasetId);
  const mined = MinedConfigSchema.safeParse(dataset.config);
  if (dataset.kind !== 'mined' || !mined.success || Object.keys(mined.data.filter).length > 0) return [];
  const { seed, splits } = mined.data;
  const texts: TaskText[] = [];
  for (const task of store.iterateTaskTexts()) {
    const split = assignSplit(task.id, seed, splits);
    if (split !== 'test') texts.push({ taskId: task.id, question: task.question, suite: task.suite, split });
  }
  return texts;
}
