import type { Episode, EpisodeStatus } from '../core/episode.js';
import type { UsageByRole } from '../core/usage.js';
import type { UsageMeter } from '../llm/index.js';

/** What a collection run produced, as printed by `orchrm collect`. */
export interface CollectSummary {
  runId: string;
  /** Episodes collected by this invocation. */
  episodes: number;
  /** Episodes a resumed run had already committed, not redone. */
  skipped: number;
  byStatus: Partial<Record<EpisodeStatus, number>>;
  /** Episodes with a grade. */
  graded: number;
  correct: number;
  /** correct / graded, or null when nothing was graded. */
  accuracy: number | null;
  /** Every token of the run, cached responses included at their original cost. */
  tokens: UsageByRole;
  /** Mean total tokens per episode, all roles. */
  meanTokensPerEpisode: number;
  /** Model calls made, failed calls, attempts beyond the first, and calls served from the cache. */
  calls: { total: number; failed: number; retries: number; cached: number };
  wallTimeMs: number;
}

/** Counts episodes as they finish, so a long run never holds them all in memory. */
export class CollectTally {
  private readonly byStatus: Partial<Record<EpisodeStatus, number>> = {};
  private episodes = 0;
  private skipped = 0;
  private graded = 0;
  private correct = 0;

  constructor(
    private readonly runId: string,
    private readonly meter: UsageMeter,
  ) {}

  add(episode: Episode): void {
    this.episodes++;
    this.byStatus[episode.status] = (this.byStatus[episode.status] ?? 0) + 1;
    if (episode.grade) {
      this.graded++;
      if (episode.grade.correct) this.correct++;
    }
  }

  skip(): void {
    this.skipped++;
  }

  summary(wallTimeMs: number): CollectSummary {
    const tokens = this.meter.byRole();
    const totalTokens = tokens.orchestrator.totalTokens + tokens.execution.totalTokens + tokens.verification.totalTokens;
    return {
      runId: this.runId,
      episodes: this.episodes,
      skipped: this.skipped,
      byStatus: { ...this.byStatus },
      graded: this.graded,
      correct: this.correct,
      accuracy: this.graded > 0 ? this.correct / this.graded : null,
      tokens,
      meanTokensPerEpisode: this.episodes > 0 ? totalTokens / this.episodes : 0,
      calls: { total: this.meter.calls, failed: this.meter.failedCalls, retries: this.meter.retries, cached: this.meter.cachedCalls },
      wallTimeMs,
    };
  }
}
