import { BudgetExceededError, type EpisodeStatus, type NodeStatus, type NodeTrace, type Plan, type PlanNode, type Retriever, type Task, TimeoutError } from '../core/index.js';
import type { ExecutableBlocks } from './executable-blocks.js';
import type { ChatProvider } from '../llm/index.js';
import { linkedEdges } from '../plan/index.js';
import { EpisodeLimits } from './episode-limits.js';
import type { EpisodeMeter } from './node-chat.js';
import { runNode } from './run-node.js';
import { substituteInput } from './substitute-input.js';

export interface ExecutePlanOptions {
  task: Task;
  /** A plan that passed validation. */
  plan: Plan;
  blocks: ExecutableBlocks;
  /** Answers the sub-agents' calls. */
  provider: ChatProvider;
  retriever?: Retriever;
  /** Execution tokens the episode may spend. @default unlimited */
  tokenBudget?: number;
  /** Wall time the episode may take. @default unlimited */
  timeoutMs?: number;
  /** Seed from which every call's seed is derived. */
  seed: number;
  /** Attributes every call's tokens to the episode and node. */
  meter?: EpisodeMeter;
  signal?: AbortSignal;
}

export interface PlanExecution {
  /** One trace per plan node, in plan order; nodes that never ran are `skipped`. */
  nodes: NodeTrace[];
  finalAnswer: string | undefined;
  status: EpisodeStatus;
  reason: string | undefined;
}

/**
 * Interprets a plan as data: each node runs as soon as every node it depends on has finished
 * ok, independent nodes concurrently. A failed node skips everything downstream of it; model
 * misbehaviour ends up in statuses and reasons, never in an exception.
 */
export async function executePlan(options: ExecutePlanOptions): Promise<PlanExecution> {
  const { task, plan } = options;
  if (plan.nodes.length === 0) {
    return { nodes: [], finalAnswer: plan.directAnswer ?? '', status: 'ok', reason: undefined };
  }
  const limits = new EpisodeLimits(options.tokenBudget, options.timeoutMs, options.signal);
  const episodeStartMs = performance.now();
  const parents = parentsByNode(plan);
  const answers = new Map<string, string>();
  const traces = new Map<string, NodeTrace>();
  const running = new Map<string, Promise<void>>();
  const pending = new Set(plan.nodes.map((node) => node.id));

  const start = (node: PlanNode): void => {
    pending.delete(node.id);
    const block = options.blocks.get(node.agent);
    const input = substituteInput(node.input, task.question, answers);
    const finish = (trace: NodeTrace): void => {
      traces.set(node.id, trace);
      if (trace.status === 'ok') answers.set(node.id, trace.answer ?? '');
      running.delete(node.id);
    };
    if (!block) {
      finish(skippedTrace(node, input, 'runtime_error', `no block named "${node.agent}" is registered`));
      return;
    }
    const promise = runNode({
      task,
      node,
      block,
      input,
      provider: options.provider,
      retriever: options.retriever,
      limits,
      episodeSeed: options.seed,
      episodeStartMs,
      meter: options.meter,
    }).then(finish);
    running.set(node.id, promise);
  };

  try {
    while (pending.size > 0 || running.size > 0) {
      for (const node of plan.nodes) {
        if (!pending.has(node.id)) continue;
        const nodeParents = parents.get(node.id) ?? [];
        const failedParent = nodeParents.find((id) => traces.has(id) && traces.get(id)?.status !== 'ok');
        if (failedParent !== undefined) {
          pending.delete(node.id);
          traces.set(node.id, skippedTrace(node, node.input, 'skipped', `upstream node ${failedParent} did not finish ok`));
        } else if (nodeParents.every((id) => answers.has(id))) {
          start(node);
        }
      }
      if (running.size === 0) break;
      await Promise.race(running.values());
    }
  } finally {
    limits.dispose();
  }

  const nodes = plan.nodes.map(
    (node) => traces.get(node.id) ?? skippedTrace(node, node.input, 'skipped', 'never became ready'),
  );
  const answerNode = plan.answer ?? plan.nodes[plan.nodes.length - 1]?.id;
  const finalTrace = nodes.find((trace) => trace.nodeId === answerNode);
  const failed = nodes.find((trace) => trace.status !== 'ok' && trace.status !== 'skipped');
  const stoppedBy = limits.stoppedBy;
  let status: EpisodeStatus = 'ok';
  let reason: string | undefined;
  // A call the server failed changed what the plan did, however it ended: the episode is the server's failure.
  if (limits.serverFailure !== undefined && !options.signal?.aborted) [status, reason] = ['server_error', `server failure: ${limits.serverFailure}`];
  else if (stoppedBy instanceof BudgetExceededError) [status, reason] = ['budget_exceeded', stoppedBy.message];
  else if (stoppedBy instanceof TimeoutError) [status, reason] = ['timeout', stoppedBy.message];
  else if (failed) [status, reason] = [episodeStatusOf(failed.status), `node ${failed.nodeId}: ${failed.reason ?? failed.status}`];
  else if (finalTrace?.status !== 'ok') [status, reason] = ['runtime_error', `answer node ${answerNode} did not finish`];
  return {
    nodes,
    finalAnswer: status === 'ok' ? finalTrace?.answer : undefined,
    status,
    reason,
  };
}

function episodeStatusOf(status: NodeStatus): EpisodeStatus {
  return status === 'timeout' || status === 'budget_exceeded' ? status : 'runtime_error';
}

/**
 * The nodes each node waits for: its edges' sources, and every node its input names as
 * `${id}` (the parser writes those edges out; a plan built in code may not), so a reference
 * is always replaced by an answer that is already there, never by whichever finished first.
 */
function parentsByNode(plan: Plan): Map<string, string[]> {
  const parents = new Map<string, string[]>();
  for (const edge of linkedEdges(plan.nodes, plan.edges)) {
    const list = parents.get(edge.to) ?? [];
    if (!list.includes(edge.from)) list.push(edge.from);
    parents.set(edge.to, list);
  }
  return parents;
}

function skippedTrace(node: PlanNode, input: string, status: NodeTrace['status'], reason: string): NodeTrace {
  return {
    nodeId: node.id,
    agent: node.agent,
    input,
    params: node.params,
    status,
    reason,
    calls: [],
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    startedAfterMs: 0,
    latencyMs: 0,
  };
}
