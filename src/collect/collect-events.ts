import type { EpisodeStatus } from '../core/index.js';
import type { CollectSummary } from './collect-summary.js';

/** Where a collection stands, in every progress event. */
export interface CollectProgress {
  runId: string;
  /** Episodes the run holds (committed earlier or now). */
  done: number;
  /** Samples the run is made of. */
  total: number;
  /** Episodes so far that a model-call error ended. */
  failed: number;
  /** Tokens this invocation has spent so far (all roles, cached responses included). */
  tokens: number;
  /** Since this invocation started. @unit milliseconds */
  elapsedMs: number;
  /** Episodes per second collected by this invocation; 0 before the first. */
  episodesPerSecond: number;
  /** Time left at the current rate; null before the first episode. @unit milliseconds */
  etaMs: number | null;
}

/**
 * What a collection reports while it runs, one typed union (noun first, lifecycles end with
 * `-end`, as the AI SDK names its step events). `orchrm collect --events` prints each as one JSON
 * line on stdout.
 */
export type CollectEvent =
  /** Another live process is collecting the same run; this one waits for it rather than redo its work. */
  | { type: 'collect-waiting'; runId: string; holder: { pid: number; host: string } }
  | ({ type: 'collect-start'; continued: boolean } & CollectProgress)
  | ({
      type: 'episode-end';
      episodeId: string;
      taskId: string;
      sampleIndex: number;
      status: EpisodeStatus;
      correct: boolean | null;
      /** This episode's tokens, all roles. */
      episodeTokens: number;
      /** The model-call error that ended it, when one did. */
      failure: string | null;
    } & CollectProgress)
  | { type: 'collect-end'; summary: CollectSummary; stopped: { reason: string; message: string } | null };
