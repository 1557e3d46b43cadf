import type { Episode, LlmCallRecord, NodeTrace, Task } from '../core/index.js';
import type { EpisodeRow, LlmCallRow, NodeTraceRow, TaskRow } from './row-types.js';
import { truncateText } from './truncate-text.js';

/** What the writer keeps of each episode. */
export interface StoredTextOptions {
  /** Keep full prompt messages of every call. */
  keepPrompts: boolean;
  /** Longest prompt, response, node output or plan text kept; longer ones are truncated with a marker. */
  maxStoredTextChars: number | undefined;
}

/** The rows one episode occupies. */
export interface EpisodeRows {
  episode: EpisodeRow;
  nodes: NodeTraceRow[];
  calls: LlmCallRow[];
}

export function taskToRow(task: Task): TaskRow {
  return {
    id: task.id,
    suite: task.suite,
    question: task.question,
    answer: task.answer ?? null,
    aliases: task.answerAliases === undefined ? null : JSON.stringify(task.answerAliases),
    metadata: JSON.stringify(task.metadata),
  };
}

/**
 * Splits an episode into table rows. `taskSnapshot` is the episode's task as JSON when it differs
 * from the shared tasks row, else null (see EpisodeWriter).
 */
export function episodeToRows(episode: Episode, taskSnapshot: string | null, options: StoredTextOptions): EpisodeRows {
  const { usage } = episode;
  const calls: LlmCallRow[] = [];
  if (episode.orchestratorCall) calls.push(callToRow(episode.id, null, 0, episode.orchestratorCall, options));
  const nodes = episode.nodes.map((node, position) => {
    node.calls.forEach((call, callPosition) => calls.push(callToRow(episode.id, position, callPosition, call, options)));
    return nodeToRow(episode.id, position, node, options);
  });
  return {
    episode: {
      id: episode.id,
      run_id: episode.runId ?? null,
      task_id: episode.task.id,
      task_snapshot: taskSnapshot,
      sample_index: episode.sampleIndex,
      orchestrator: episode.orchestrator.name,
      checkpoint: episode.orchestrator.checkpoint ?? null,
      checkpoint_step: episode.orchestrator.step ?? null,
      seed: episode.seed ?? null,
      status: episode.status,
      reason: episode.reason ?? null,
      plan_format: episode.planFormat,
      plan_text: truncateText(episode.planText, options.maxStoredTextChars),
      plan: episode.plan === undefined ? null : JSON.stringify(episode.plan),
      diagnostics: JSON.stringify(episode.diagnostics),
      warnings: JSON.stringify(episode.warnings),
      final_answer: episode.finalAnswer ?? null,
      correct: episode.grade === undefined ? null : Number(episode.grade.correct),
      grade: episode.grade === undefined ? null : JSON.stringify(episode.grade),
      orchestrator_prompt_tokens: usage.orchestrator.promptTokens,
      orchestrator_completion_tokens: usage.orchestrator.completionTokens,
      orchestrator_total_tokens: usage.orchestrator.totalTokens,
      execution_prompt_tokens: usage.execution.promptTokens,
      execution_completion_tokens: usage.execution.completionTokens,
      execution_total_tokens: usage.execution.totalTokens,
      verification_prompt_tokens: usage.verification.promptTokens,
      verification_completion_tokens: usage.verification.completionTokens,
      verification_total_tokens: usage.verification.totalTokens,
      wall_time_ms: episode.wallTimeMs,
      created_at: episode.createdAt,
    },
    nodes,
    calls,
  };
}

function nodeToRow(episodeId: string, position: number, node: NodeTrace, options: StoredTextOptions): NodeTraceRow {
  return {
    episode_id: episodeId,
    position,
    node_id: node.nodeId,
    agent: node.agent,
    input: node.input,
    params: JSON.stringify(node.params),
    status: node.status,
    reason: node.reason ?? null,
    output: node.output === undefined ? null : truncateText(node.output, options.maxStoredTextChars),
    answer: node.answer ?? null,
    artifacts: node.artifacts === undefined ? null : JSON.stringify(node.artifacts),
    prompt_tokens: node.usage.promptTokens,
    completion_tokens: node.usage.completionTokens,
    total_tokens: node.usage.totalTokens,
    started_after_ms: node.startedAfterMs,
    latency_ms: node.latencyMs,
  };
}

function callToRow(
  episodeId: string,
  nodePosition: number | null,
  position: number,
  call: LlmCallRecord,
  options: StoredTextOptions,
): LlmCallRow {
  const { maxStoredTextChars } = options;
  const messages =
    options.keepPrompts && call.messages !== undefined
      ? JSON.stringify(call.messages.map((message) => ({ ...message, content: truncateText(message.content, maxStoredTextChars) })))
      : null;
  return {
    episode_id: episodeId,
    node_position: nodePosition,
    position,
    call_index: call.index,
    role: call.role,
    slot: call.slot,
    model: call.model,
    messages,
    request_hash: call.requestHash,
    response: truncateText(call.response, maxStoredTextChars),
    prompt_tokens: call.usage.promptTokens,
    completion_tokens: call.usage.completionTokens,
    total_tokens: call.usage.totalTokens,
    usage_source: call.usageSource,
    latency_ms: call.latencyMs,
    attempts: call.attempts,
    cached: Number(call.cached),
    temperature: call.temperature ?? null,
    sample_index: call.sampleIndex ?? null,
    error: call.error ?? null,
    attempt_errors: call.attemptErrors === undefined ? null : JSON.stringify(call.attemptErrors),
    reasoning: call.reasoning === undefined ? null : truncateText(call.reasoning, maxStoredTextChars),
  };
}
