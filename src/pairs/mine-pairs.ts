import { type EventSink, InvalidInputError, type ProgressEvent, stableId, stableStringify, zodIssues } from '../core/index.js';
import type { EpisodeFilter, Store } from '../store/index.js';
import { groupStoredEpisodes } from './group-stored-episodes.js';
import { minePairGroups, type MiningReport } from './mine-pair-groups.js';
import { PairMiningConfigSchema, type PairMiningConfig, type PairMiningConfigInput } from './mining-config.js';

export interface MinePairsOptions {
  /** Mining configuration (sources, seed, rubric, caps, balance, splits); every field optional. */
  config?: PairMiningConfigInput;
  /** Which stored episodes to mine. @default all */
  filter?: EpisodeFilter;
  /** @default a hash of the configuration and filter, so re-mining the same way replaces the same dataset */
  datasetId?: string;
  /** Progress of stage `reading episodes`, every 1,000 episodes read and after the last. */
  events?: EventSink<ProgressEvent>;
}

export interface MinePairsResult extends MiningReport {
  /** Episodes left out because they hold no plan text (the orchestrator call failed). */
  withoutPlanText: number;
  /** Episodes left out because a server failure ended them (status `server_error`; a resumed collection redoes them). */
  serverFailures: number;
  config: PairMiningConfig;
}

/**
 * Mines win-lose pairs from the episodes in the store and writes them as one dataset (replacing
 * a dataset of the same id), together with the configuration and the report. Reads only what
 * the episodes hold (their outlines: no LLM calls); executes nothing. Memory holds a few hundred
 * bytes plus the plan text per episode, and the selected pairs.
 * @example
 * const result = minePairs(store, { config: { sources: ['process', 'checkpoint'], seed: 7 } });
 * console.log(result.pairs, result.sources.process?.kept);
 */
export function minePairs(store: Store, options: MinePairsOptions = {}): MinePairsResult {
  const parsed = PairMiningConfigSchema.safeParse(options.config ?? {});
  if (!parsed.success) throw new InvalidInputError('pair mining config', zodIssues(parsed.error));
  const config = parsed.data;
  const filter = options.filter ?? {};
  const datasetId = options.datasetId ?? stableId('pairs', stableStringify({ config, filter }));
  const { groups, withoutPlanText, serverFailures } = groupStoredEpisodes(store, filter, { labelFree: config.labelFree }, options.events);
  const { pairs, report } = minePairGroups(groups, config, datasetId);
  const result: MinePairsResult = { ...report, withoutPlanText, serverFailures, config };
  store.transaction(() => {
    store.deletePairs(datasetId);
    store.insertPairs(pairs);
    store.savePairDataset({ id: datasetId, kind: 'mined', config: { ...config, filter }, report: { ...report, withoutPlanText, serverFailures } });
  });
  return result;
}
