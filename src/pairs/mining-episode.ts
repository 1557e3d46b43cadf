import { type EpisodeStatus, type OrchestratorRef, sha256 } from '../core/index.js';
import type { EpisodeOutline } from '../store/index.js';
import { defaultBlockCatalog, renderInvalidPlan, renderPlan, type BlockCatalog } from '../plan/index.js';
import { readArtifactSignals, type ArtifactSignals } from './process-signals.js';

/**
 * What the miners need of one episode, a few hundred bytes instead of its whole trace, so a
 * store of any size can be grouped by task in memory.
 */
export interface MiningEpisode {
  id: string;
  taskId: string;
  orchestrator: OrchestratorRef;
  status: EpisodeStatus;
  /** The grade's verdict; undefined when the episode was not graded (no gold answer) or mining is label-free. */
  correct?: boolean;
  executionTokens: number;
  /** The plan text as the orchestrator wrote it: what a pair stores. */
  planText: string;
  /** Hash of the canonical plan text (`renderPlan`, or `renderInvalidPlan` for failed plans): what dedup compares. */
  canonicalKey: string;
  /** What its artifacts show, label-free (the process miner reads these). */
  signals: ArtifactSignals;
}

/** The canonical text of an episode's plan: its canonical rendering, or its diagnostic kinds when it failed. */
export function canonicalEpisodePlanText(episode: Pick<EpisodeOutline, 'plan' | 'diagnostics'>, catalog: BlockCatalog = defaultBlockCatalog()): string {
  return episode.plan !== undefined && episode.diagnostics.length === 0 ? renderPlan(episode.plan, catalog) : renderInvalidPlan(episode.diagnostics);
}

/** Distinct plan texts remembered by `createCanonicalKeyer`; bounds its memory on stores of unique plans. */
const MAX_CACHED_PLAN_TEXTS = 50_000;

/**
 * Returns a function from an episode to the hash of its canonical plan text. Orchestrators
 * resample the same plans often, so renderings are remembered by plan text (valid plans only:
 * a failed plan's canonical text comes from its diagnostics, which are cheap to render).
 */
export function createCanonicalKeyer(catalog: BlockCatalog = defaultBlockCatalog()): (episode: EpisodeOutline) => string {
  const keyByPlanText = new Map<string, string>();
  return (episode) => {
    const valid = episode.plan !== undefined && episode.diagnostics.length === 0;
    const cached = valid ? keyByPlanText.get(episode.planText) : undefined;
    if (cached !== undefined) return cached;
    const key = sha256(canonicalEpisodePlanText(episode, catalog)).slice(0, 24);
    if (valid) {
      if (keyByPlanText.size >= MAX_CACHED_PLAN_TEXTS) keyByPlanText.clear();
      keyByPlanText.set(episode.planText, key);
    }
    return key;
  };
}

/**
 * Reduces an episode to what the miners read. With `labelFree` the grade is not copied, so no
 * miner can read it.
 */
export function toMiningEpisode(episode: EpisodeOutline, options: { labelFree?: boolean; canonicalKeyOf?: (episode: EpisodeOutline) => string } = {}): MiningEpisode {
  const canonicalKeyOf = options.canonicalKeyOf ?? createCanonicalKeyer();
  return {
    id: episode.id,
    taskId: episode.task.id,
    orchestrator: episode.orchestrator,
    status: episode.status,
    ...(episode.grade !== undefined && options.labelFree !== true && { correct: episode.grade.correct }),
    executionTokens: episode.usage.execution.totalTokens,
    planText: episode.planText,
    canonicalKey: canonicalKeyOf(episode),
    signals: readArtifactSignals(episode),
  };
}

/** The episodes of one task, as every miner receives them (ordered by episode id). */
export interface TaskGroup {
  taskId: string;
  question: string;
  /** Whether the task has a gold answer; without one no episode is graded (label-free). */
  hasGoldAnswer: boolean;
  episodes: MiningEpisode[];
}
