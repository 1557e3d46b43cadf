import type { Episode, EpisodeStatus, OrchestratorRef } from '../core/episode.js';
import { sha256 } from '../core/hash.js';
import { defaultBlockCatalog, renderInvalidPlan, renderPlan, type BlockCatalog } from '../plan/index.js';
import type { ProcessRubric } from './process-rubric.js';
import { scoreProcess, type ProcessScore } from './score-process.js';

/**
 * What the miners need of one episode, a few hundred bytes instead of its whole trace, so a
 * store of any size can be grouped by task in memory.
 */
export interface MiningEpisode {
  id: string;
  taskId: string;
  orchestrator: OrchestratorRef;
  status: EpisodeStatus;
  /** The grade's verdict; undefined when the episode was not graded (no gold answer). */
  correct?: boolean;
  executionTokens: number;
  /** The plan text as the orchestrator wrote it: what a pair stores. */
  planText: string;
  /** Hash of the canonical plan text (`renderPlan`, or `renderInvalidPlan` for failed plans): what dedup compares. */
  canonicalKey: string;
  process: ProcessScore;
}

/** The canonical text of an episode's plan: its canonical rendering, or its diagnostic kinds when it failed. */
export function canonicalPlanText(episode: Episode, catalog: BlockCatalog = defaultBlockCatalog()): string {
  return episode.plan !== undefined && episode.diagnostics.length === 0 ? renderPlan(episode.plan, catalog) : renderInvalidPlan(episode.diagnostics);
}

/** Reduces an episode to what the miners read, scoring its process on the way. */
export function toMiningEpisode(episode: Episode, rubric: ProcessRubric, catalog: BlockCatalog = defaultBlockCatalog()): MiningEpisode {
  return {
    id: episode.id,
    taskId: episode.task.id,
    orchestrator: episode.orchestrator,
    status: episode.status,
    ...(episode.grade !== undefined && { correct: episode.grade.correct }),
    executionTokens: episode.usage.execution.totalTokens,
    planText: episode.planText,
    canonicalKey: sha256(canonicalPlanText(episode, catalog)).slice(0, 24),
    process: scoreProcess(episode, rubric),
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
