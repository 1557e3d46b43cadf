import { addUsage, BudgetExceededError, type LlmCallRecord, type NodeStatus, type NodeTrace, type PlanNode, type Retriever, type Task, TimeoutError } from '../core/index.js';
import type { BlockDefinition } from '../agents/index.js';
import type { ChatProvider } from '../llm/index.js';
import type { EpisodeLimits } from './episode-limits.js';
import { createNodeChat, errorMessage, type EpisodeMeter } from './node-chat.js';

export interface RunNodeOptions {
  task: Task;
  node: PlanNode;
  block: BlockDefinition;
  /** Input after substitution. */
  input: string;
  provider: ChatProvider;
  retriever: Retriever | undefined;
  limits: EpisodeLimits;
  episodeSeed: number;
  /** performance.now() at the episode's start. */
  episodeStartMs: number;
  meter: EpisodeMeter | undefined;
}

/** Runs one node's block and turns whatever happens into a NodeTrace; never throws. */
export async function runNode(options: RunNodeOptions): Promise<NodeTrace> {
  const { task, node, block, input, provider, retriever, limits, episodeSeed, episodeStartMs, meter } = options;
  const startedAt = performance.now();
  const calls: LlmCallRecord[] = [];
  const trace = (fields: Partial<NodeTrace> & { status: NodeStatus }): NodeTrace => ({
    nodeId: node.id,
    agent: block.name,
    input,
    params: node.params,
    calls,
    usage: addUsage(...calls.map((call) => call.usage)),
    startedAfterMs: startedAt - episodeStartMs,
    latencyMs: performance.now() - startedAt,
    ...fields,
  });

  const parsedParams = block.paramsSchema.safeParse(node.params);
  if (!parsedParams.success) {
    // The validator rejects these before execution; this guards plans built in code.
    return trace({ status: 'runtime_error', reason: `invalid params: ${parsedParams.error.message}` });
  }
  const params = parsedParams.data;
  const model = typeof params.model === 'string' ? params.model : undefined;
  try {
    const result = await block.run({
      task,
      nodeId: node.id,
      input,
      params,
      chat: createNodeChat({ provider, limits, nodeId: node.id, model, episodeSeed, calls, ...(meter && { meter }) }),
      ...(retriever !== undefined && { retriever }),
      signal: limits.signal,
    });
    return trace({ params, status: 'ok', output: result.output, answer: result.answer, artifacts: result.artifacts });
  } catch (error) {
    const cause = limits.stoppedBy ?? error;
    return trace({ params, status: nodeStatusOf(cause), reason: errorMessage(cause) });
  }
}

export function nodeStatusOf(error: unknown): NodeStatus {
  if (error instanceof BudgetExceededError) return 'budget_exceeded';
  if (error instanceof TimeoutError) return 'timeout';
  return 'runtime_error';
}
