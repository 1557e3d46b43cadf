import { type Episode, EPISODE_SCHEMA_VERSION, EpisodeSchema, InvalidInputError, type Task, zodIssues } from '../core/index.js';
import type { EpisodeRow, LlmCallRow, NodeTraceRow, TaskRow } from './row-types.js';

export function rowToTask(row: TaskRow): Task {
  return {
    id: row.id,
    suite: row.suite,
    question: row.question,
    ...(row.answer !== null && { answer: row.answer }),
    ...(row.aliases !== null && { answerAliases: JSON.parse(row.aliases) as string[] }),
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  };
}

/**
 * Rebuilds the Episode from its rows and validates it, so whatever a caller reads back has the
 * same shape it would have had in memory. `calls` holds the orchestrator call (node_position
 * NULL) and every node's calls, in any order; a reader that skips calls passes none.
 */
export function rowsToEpisode(
  row: EpisodeRow,
  taskRow: TaskRow,
  nodeRows: readonly NodeTraceRow[],
  callRows: readonly LlmCallRow[],
): Episode {
  const task: unknown = row.task_snapshot === null ? rowToTask(taskRow) : JSON.parse(row.task_snapshot);
  const callsByNode = new Map<number | null, LlmCallRow[]>();
  for (const call of callRows) {
    const list = callsByNode.get(call.node_position) ?? [];
    list.push(call);
    callsByNode.set(call.node_position, list);
  }
  const orchestratorCall = callsByNode.get(null)?.[0];
  const candidate = {
    schemaVersion: EPISODE_SCHEMA_VERSION,
    id: row.id,
    ...(row.run_id !== null && { runId: row.run_id }),
    task,
    orchestrator: {
      name: row.orchestrator,
      ...(row.checkpoint !== null && { checkpoint: row.checkpoint }),
      ...(row.checkpoint_step !== null && { step: row.checkpoint_step }),
    },
    sampleIndex: row.sample_index,
    ...(row.seed !== null && { seed: row.seed }),
    planText: row.plan_text,
    planFormat: row.plan_format,
    ...(row.plan !== null && { plan: JSON.parse(row.plan) }),
    diagnostics: JSON.parse(row.diagnostics),
    warnings: JSON.parse(row.warnings),
    ...(orchestratorCall !== undefined && { orchestratorCall: rowToCall(orchestratorCall) }),
    nodes: [...nodeRows]
      .sort((a, b) => a.position - b.position)
      .map((node) => rowToNode(node, callsByNode.get(node.position) ?? [])),
    ...(row.final_answer !== null && { finalAnswer: row.final_answer }),
    ...(row.grade !== null && { grade: JSON.parse(row.grade) }),
    usage: {
      orchestrator: usage(row.orchestrator_prompt_tokens, row.orchestrator_completion_tokens, row.orchestrator_total_tokens),
      execution: usage(row.execution_prompt_tokens, row.execution_completion_tokens, row.execution_total_tokens),
      verification: usage(row.verification_prompt_tokens, row.verification_completion_tokens, row.verification_total_tokens),
    },
    wallTimeMs: row.wall_time_ms,
    status: row.status,
    ...(row.reason !== null && { reason: row.reason }),
    createdAt: row.created_at,
  };
  const parsed = EpisodeSchema.safeParse(candidate);
  if (!parsed.success) {
    throw new InvalidInputError(`stored episode ${row.id}`, zodIssues(parsed.error), 'the database was edited by hand or by another program');
  }
  return parsed.data;
}

function rowToNode(row: NodeTraceRow, callRows: readonly LlmCallRow[]) {
  return {
    nodeId: row.node_id,
    agent: row.agent,
    input: row.input,
    params: JSON.parse(row.params) as unknown,
    status: row.status,
    ...(row.reason !== null && { reason: row.reason }),
    ...(row.output !== null && { output: row.output }),
    ...(row.answer !== null && { answer: row.answer }),
    calls: [...callRows].sort((a, b) => a.position - b.position).map(rowToCall),
    ...(row.artifacts !== null && { artifacts: JSON.parse(row.artifacts) as unknown }),
    usage: usage(row.prompt_tokens, row.completion_tokens, row.total_tokens),
    startedAfterMs: row.started_after_ms,
    latencyMs: row.latency_ms,
  };
}

function rowToCall(row: LlmCallRow) {
  return {
    index: row.call_index,
    role: row.role,
    slot: row.slot,
    model: row.model,
    ...(row.messages !== null && { messages: JSON.parse(row.messages) as unknown }),
    requestHash: row.request_hash,
    response: row.response,
    ...(row.reasoning !== null && { reasoning: row.reasoning }),
    usage: usage(row.prompt_tokens, row.completion_tokens, row.total_tokens),
    usageSource: row.usage_source,
    latencyMs: row.latency_ms,
    attempts: row.attempts,
    cached: row.cached !== 0,
    ...(row.temperature !== null && { temperature: row.temperature }),
    ...(row.sample_index !== null && { sampleIndex: row.sample_index }),
    ...(row.error !== null && { error: row.error }),
    ...(row.attempt_errors !== null && { attemptErrors: JSON.parse(row.attempt_errors) as unknown }),
  };
}

function usage(promptTokens: number, completionTokens: number, totalTokens: number) {
  return { promptTokens, completionTokens, totalTokens };
}
