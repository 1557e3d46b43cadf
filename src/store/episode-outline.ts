import type { Diagnostic, EpisodeStatus, Grade, NodeTrace, OrchestratorRef, Plan, SqliteDatabase, Task, UsageByRole } from '../core/index.js';
import { filterToSql, type EpisodeFilter } from './episode-filter.js';

/** A node trace without its calls, params and output text. */
export type NodeOutline = Pick<NodeTrace, 'nodeId' | 'agent' | 'input' | 'status' | 'answer' | 'artifacts'>;

/**
 * An episode without its LLM calls, node outputs and params, warnings or task metadata: what
 * pair mining reads of every episode. Every `Episode` is also an `EpisodeOutline`.
 */
export interface EpisodeOutline {
  id: string;
  task: Pick<Task, 'id' | 'question' | 'answer'>;
  orchestrator: OrchestratorRef;
  status: EpisodeStatus;
  planText: string;
  plan?: Plan;
  diagnostics: Diagnostic[];
  nodes: NodeOutline[];
  finalAnswer?: string;
  grade?: Grade;
  usage: Pick<UsageByRole, 'execution'>;
}

interface OutlineRow {
  row_number: number;
  id: string;
  task_id: string;
  task_snapshot: string | null;
  question: string;
  answer: string | null;
  orchestrator: string;
  checkpoint: string | null;
  checkpoint_step: number | null;
  status: string;
  plan_text: string;
  plan: string | null;
  diagnostics: string;
  final_answer: string | null;
  grade: string | null;
  execution_prompt_tokens: number;
  execution_completion_tokens: number;
  execution_total_tokens: number;
}

interface NodeOutlineRow {
  episode_id: string;
  node_id: string;
  agent: string;
  input: string;
  status: string;
  answer: string | null;
  artifacts: string | null;
}

/** Episodes per query; bounds memory whatever the number of episodes stored. */
const PAGE_SIZE = 1000;

/**
 * Reads episode outlines a page at a time, two queries per page, only the columns mining needs.
 * Rows were validated by zod when written; unlike `iterateEpisodes`, outlines are not validated
 * again on the way out, which is most of the cost of reading a full episode.
 */
export function* iterateEpisodeOutlines(db: SqliteDatabase, filter: EpisodeFilter): Generator<EpisodeOutline, void, undefined> {
  const { where, params } = filterToSql(filter);
  const page = db.prepare<[Record<string, unknown>], OutlineRow>(
    `SELECT e.*, t.question, t.answer FROM (
       SELECT rowid AS row_number, id, task_id, task_snapshot, orchestrator, checkpoint, checkpoint_step, status, plan_text, plan,
         diagnostics, final_answer, grade, execution_prompt_tokens, execution_completion_tokens, execution_total_tokens
       FROM episodes WHERE ${where} AND rowid > @after ORDER BY rowid LIMIT ${PAGE_SIZE}
     ) e JOIN tasks t ON t.id = e.task_id ORDER BY e.row_number`,
  );
  const nodesOf = db.prepare<[string], NodeOutlineRow>(
    `SELECT episode_id, node_id, agent, input, status, answer, artifacts FROM node_traces
     WHERE episode_id IN (SELECT value FROM json_each(?)) ORDER BY episode_id, position`,
  );
  let after = 0;
  for (;;) {
    const rows = page.all({ ...params, after });
    const last = rows.at(-1);
    if (last === undefined) return;
    after = last.row_number;
    const nodes = new Map<string, NodeOutline[]>();
    for (const node of nodesOf.all(JSON.stringify(rows.map((row) => row.id)))) {
      const list = nodes.get(node.episode_id) ?? [];
      list.push(rowToNodeOutline(node));
      nodes.set(node.episode_id, list);
    }
    for (const row of rows) yield rowToOutline(row, nodes.get(row.id) ?? []);
  }
}

function rowToOutline(row: OutlineRow, nodes: NodeOutline[]): EpisodeOutline {
  // The episode's own task, when the tasks row changed after it ran (see TaskWriter).
  const snapshot = row.task_snapshot === null ? undefined : (JSON.parse(row.task_snapshot) as Task);
  const answer = snapshot === undefined ? row.answer : (snapshot.answer ?? null);
  return {
    id: row.id,
    task: { id: row.task_id, question: snapshot?.question ?? row.question, ...(answer !== null && { answer }) },
    orchestrator: {
      name: row.orchestrator,
      ...(row.checkpoint !== null && { checkpoint: row.checkpoint }),
      ...(row.checkpoint_step !== null && { step: row.checkpoint_step }),
    },
    status: row.status as EpisodeStatus,
    planText: row.plan_text,
    ...(row.plan !== null && { plan: JSON.parse(row.plan) as Plan }),
    diagnostics: JSON.parse(row.diagnostics) as Diagnostic[],
    nodes,
    ...(row.final_answer !== null && { finalAnswer: row.final_answer }),
    ...(row.grade !== null && { grade: JSON.parse(row.grade) as Grade }),
    usage: {
      execution: { promptTokens: row.execution_prompt_tokens, completionTokens: row.execution_completion_tokens, totalTokens: row.execution_total_tokens },
    },
  };
}

function rowToNodeOutline(row: NodeOutlineRow): NodeOutline {
  return {
    nodeId: row.node_id,
    agent: row.agent,
    input: row.input,
    status: row.status as NodeOutline['status'],
    ...(row.answer !== null && { answer: row.answer }),
    ...(row.artifacts !== null && { artifacts: JSON.parse(row.artifacts) as NodeOutline['artifacts'] }),
  };
}
