import type { EventSink, ProgressEvent } from '../core/index.js';
import type { Store } from '../store/index.js';
import type { EpisodeFilter } from '../store/index.js';
import { compareText } from './compare-text.js';
import { createCanonicalKeyer, toMiningEpisode, type TaskGroup } from './mining-episode.js';

/**
 * Streams the store's episode outlines (no LLM calls, node outputs or params) and groups their mining summaries by
 * task; in label-free mode grades are left behind here, before any miner runs. Memory holds one summary per episode, not its trace. Episodes with no plan text (the
 * orchestrator call itself failed) are left out: there is no plan to prefer or reject; so are
 * episodes a server failure ended (`server_error`): what they did says nothing about their plan.
 * Groups come sorted by task id and episodes by id, so results never depend on insertion order.
 */
export function groupStoredEpisodes(
  store: Store,
  filter: EpisodeFilter,
  options: { labelFree: boolean },
  events?: EventSink<ProgressEvent>,
): { groups: TaskGroup[]; withoutPlanText: number; serverFailures: number } {
  const total = store.countEpisodes(filter);
  const groups = new Map<string, TaskGroup>();
  let done = 0;
  let withoutPlanText = 0;
  let serverFailures = 0;
  const canonicalKeyOf = createCanonicalKeyer();
  for (const episode of store.iterateEpisodeOutlines(filter)) {
    done += 1;
    if (events !== undefined && (done % 1000 === 0 || done === total)) events({ type: 'progress', stage: 'reading episodes', done, total });
    if (episode.status === 'server_error') {
      serverFailures += 1;
      continue;
    }
    if (episode.planText.trim() === '') {
      withoutPlanText += 1;
      continue;
    }
    const group = groups.get(episode.task.id);
    const summary = toMiningEpisode(episode, { labelFree: options.labelFree, canonicalKeyOf });
    if (group === undefined) {
      groups.set(episode.task.id, { taskId: episode.task.id, question: episode.task.question, hasGoldAnswer: episode.task.answer !== undefined, episodes: [summary] });
    } else {
      group.episodes.push(summary);
    }
  }
  const sorted = [...groups.values()].sort((a, b) => compareText(a.taskId, b.taskId));
  for (const group of sorted) group.episodes.sort((a, b) => compareText(a.id, b.id));
  return { groups: sorted, withoutPlanText, serverFailures };
}
