import type { Episode, EpisodeStatus } from '../core/episode.js';
import { addUsage, type UsageByRole } from '../core/usage.js';

/** What a collection run produced, as printed by `orchrm collect`. */
export interface CollectSummary {
  runId: string;
  episodes: number;
  byStatus: Partial<Record<EpisodeStatus, number>>;
  /** Episodes with a grade. */
  graded: number;
  correct: number;
  /** correct / graded, or null when nothing was graded. */
  accuracy: number | null;
  tokens: UsageByRole;
  /** Mean total tokens per episode, all roles. */
  meanTokensPerEpisode: number;
  wallTimeMs: number;
}

export function summarizeEpisodes(runId: string, episodes: readonly Episode[], wallTimeMs: number): CollectSummary {
  const byStatus: Partial<Record<EpisodeStatus, number>> = {};
  let graded = 0;
  let correct = 0;
  for (const episode of episodes) {
    byStatus[episode.status] = (byStatus[episode.status] ?? 0) + 1;
    if (episode.grade) {
      graded++;
      if (episode.grade.correct) correct++;
    }
  }
  const tokens: UsageByRole = {
    orchestrator: addUsage(...episodes.map((episode) => episode.usage.orchestrator)),
    execution: addUsage(...episodes.map((episode) => episode.usage.execution)),
    verification: addUsage(...episodes.map((episode) => episode.usage.verification)),
  };
  const totalTokens = tokens.orchestrator.totalTokens + tokens.execution.totalTokens + tokens.verification.totalTokens;
  return {
    runId,
    episodes: episodes.length,
    byStatus,
    graded,
    correct,
    accuracy: graded > 0 ? correct / graded : null,
    tokens,
    meanTokensPerEpisode: episodes.length > 0 ? totalTokens / episodes.length : 0,
    wallTimeMs,
  };
}
