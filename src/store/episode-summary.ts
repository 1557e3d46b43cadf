import type { EpisodeStatus, OrchestratorRef, UsageByRole } from '../core/index.js';
import type { EpisodeRow } from './row-types.js';

/** One line of an episode listing: identity, outcome and cost, without plan or traces. */
export interface EpisodeSummary {
  id: string;
  runId?: string;
  taskId: string;
  sampleIndex: number;
  orchestrator: OrchestratorRef;
  status: EpisodeStatus;
  reason?: string;
  planFormat: 'json' | 'xml' | 'unknown';
  finalAnswer?: string;
  /** Grade outcome; absent when the episode was not graded. */
  correct?: boolean;
  usage: UsageByRole;
  wallTimeMs: number;
  createdAt: string;
}

/** Columns a summary reads, so listings never load plan text. */
export const SUMMARY_COLUMNS =
  'id, run_id, task_id, sample_index, orchestrator, checkpoint, checkpoint_step, status, reason, plan_format, final_answer, correct, ' +
  'orchestrator_prompt_tokens, orchestrator_completion_tokens, orchestrator_total_tokens, ' +
  'execution_prompt_tokens, execution_completion_tokens, execution_total_tokens, ' +
  'verification_prompt_tokens, verification_completion_tokens, verification_total_tokens, wall_time_ms, created_at';

export type SummaryRow = Omit<EpisodeRow, 'task_snapshot' | 'seed' | 'plan_text' | 'plan' | 'diagnostics' | 'warnings' | 'grade'>;

export function rowToSummary(row: SummaryRow): EpisodeSummary {
  return {
    id: row.id,
    ...(row.run_id !== null && { runId: row.run_id }),
    taskId: row.task_id,
    sampleIndex: row.sample_index,
    orchestrator: {
      name: row.orchestrator,
      ...(row.checkpoint !== null && { checkpoint: row.checkpoint }),
      ...(row.checkpoint_step !== null && { step: row.checkpoint_step }),
    },
    // Status and format were validated by EpisodeSchema on the way in.
    status: row.status as EpisodeStatus,
    ...(row.reason !== null && { reason: row.reason }),
    planFormat: row.plan_format as EpisodeSummary['planFormat'],
    ...(row.final_answer !== null && { finalAnswer: row.final_answer }),
    ...(row.correct !== null && { correct: row.correct !== 0 }),
    usage: {
      orchestrator: {
        promptTokens: row.orchestrator_prompt_tokens,
        completionTokens: row.orchestrator_completion_tokens,
        totalTokens: row.orchestrator_total_tokens,
      },
      execution: {
        promptTokens: row.execution_prompt_tokens,
        completionTokens: row.execution_completion_tokens,
        totalTokens: row.execution_total_tokens,
      },
      verification: {
        promptTokens: row.verification_prompt_tokens,
        completionTokens: row.verification_completion_tokens,
        totalTokens: row.verification_total_tokens,
      },
    },
    wallTimeMs: row.wall_time_ms,
    createdAt: row.created_at,
  };
}
