import type { BlockArtifacts } from '../../core/artifacts.js';
import { EPISODE_SCHEMA_VERSION, type Episode, type NodeStatus, type NodeTrace } from '../../core/episode.js';
import type { Plan } from '../../core/plan.js';
import type { Task } from '../../core/task.js';

/** A task with a gold answer unless `gold` is false (label-free). */
export function fixtureTask(id: string, gold = true): Task {
  return { id, suite: 'fixture', question: `Question of ${id}?`, ...(gold && { answer: '42' }), metadata: {} };
}

export interface PlanEpisodeOptions {
  id: string;
  task: Task;
  /** Plans with different variants have different canonical text; equal variants, equal text. */
  variant: string;
  /** Graded verdict; omit for an ungraded (label-free) episode. */
  correct?: boolean;
  executionTokens?: number;
  orchestrator?: Episode['orchestrator'];
  /** Vote share of the plan's single self-consistency node. @default 1 */
  voteShare?: number;
  /** The node's (and the episode's) final answer. @default '42' */
  answer?: string;
  /** Make the node a search node whose answer did (true) or did not (false) occur in what it retrieved. */
  grounded?: boolean;
  nodeStatus?: NodeStatus;
  /** Whitespace or key order noise added to the plan text, which canonical rendering removes. */
  noisyText?: boolean;
}

/** A small valid episode: one self-consistency node whose input names the variant. */
export function planEpisode(options: PlanEpisodeOptions): Episode {
  const { id, task, variant, correct, executionTokens = 100, voteShare = 1, nodeStatus = 'ok', answer = '42', grounded } = options;
  const agent = grounded === undefined ? 'sc' : 'search';
  const plan: Plan = { dom: 'low', nodes: [{ id: 'A', agent, input: `Solve ${variant}`, params: agent === 'sc' ? { samples: 5 } : {} }], edges: [], answer: 'A' };
  const artifacts: BlockArtifacts =
    grounded === undefined
      ? { kind: 'sc', samples: [answer], votes: [{ answer, count: 1 }], winner: answer, voteShare }
      : { kind: 'search', steps: [{ query: 'q', docIds: ['d1'] }], documentsFound: 1, answerInDocuments: grounded };
  const node: NodeTrace = {
    nodeId: 'A',
    agent,
    input: `Solve ${variant}`,
    params: agent === 'sc' ? { samples: 5, temperature: 0.5 } : { temperature: 0.5, topK: 5, maxIterations: 5 },
    status: nodeStatus,
    ...(nodeStatus === 'ok' && { answer }),
    calls: [],
    artifacts,
    usage: { promptTokens: executionTokens, completionTokens: 0, totalTokens: executionTokens },
    startedAfterMs: 0,
    latencyMs: 1,
  };
  const planText = options.noisyText
    ? `  {"nodes": [{"input": "Solve   ${variant}", "agent": "${agent}", "id": "A", "params": ${agent === 'sc' ? '{"samples": 5}' : '{}'}}], "dom": "low", "answer": "A"}\n`
    : JSON.stringify(plan);
  return {
    schemaVersion: EPISODE_SCHEMA_VERSION,
    id,
    task,
    orchestrator: options.orchestrator ?? { name: 'sim' },
    sampleIndex: 0,
    planText,
    planFormat: 'json',
    plan,
    diagnostics: [],
    warnings: [],
    nodes: [node],
    ...(nodeStatus === 'ok' && { finalAnswer: answer }),
    ...(correct !== undefined && { grade: { correct, method: 'exact' } }),
    usage: {
      orchestrator: { promptTokens: 10, completionTokens: 10, totalTokens: 20 },
      execution: { promptTokens: executionTokens, completionTokens: 0, totalTokens: executionTokens },
      verification: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    },
    wallTimeMs: 5,
    status: nodeStatus === 'ok' ? 'ok' : 'runtime_error',
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

/** An episode whose plan did not parse. */
export function brokenEpisode(id: string, task: Task, correct?: boolean, orchestrator?: Episode['orchestrator']): Episode {
  const { plan: _plan, finalAnswer: _finalAnswer, ...base } = planEpisode({
    id,
    task,
    variant: 'broken',
    ...(correct !== undefined && { correct }),
    ...(orchestrator && { orchestrator }),
  });
  return {
    ...base,
    planText: '{"nodes": [',
    planFormat: 'unknown',
    diagnostics: [{ code: 'json_syntax', message: 'unexpected end', path: '' }],
    nodes: [],
    status: 'parse_error',
    usage: {
      orchestrator: { promptTokens: 10, completionTokens: 10, totalTokens: 20 },
      execution: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      verification: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    },
  };
}
