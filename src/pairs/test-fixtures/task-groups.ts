import type { Episode } from '../../core/episode.js';
import { toMiningEpisode, type TaskGroup } from '../mining-episode.js';

/** Groups hand-built episodes by task, as `groupStoredEpisodes` does from a store (without grades when `labelFree`). */
export function taskGroups(episodes: readonly Episode[], options: { labelFree?: boolean } = {}): TaskGroup[] {
  const groups = new Map<string, TaskGroup>();
  for (const episode of episodes) {
    const group = groups.get(episode.task.id) ?? {
      taskId: episode.task.id,
      question: episode.task.question,
      hasGoldAnswer: episode.task.answer !== undefined,
      episodes: [],
    };
    group.episodes.push(toMiningEpisode(episode, options));
    groups.set(episode.task.id, group);
  }
  return [...groups.values()];
}

/** The one group of episodes that all share a task. */
export function taskGroup(episodes: readonly Episode[], options: { labelFree?: boolean } = {}): TaskGroup {
  const [group, ...others] = taskGroups(episodes, options);
  if (group === undefined || others.length > 0) throw new Error('taskGroup expects episodes of exactly one task');
  return group;
}
