import { z } from 'zod';

/**
 * Degree of MAS (MAS-Orchestra): `low` answers directly or delegates to at most one agent;
 * `high` allows any DAG of agents.
 */
export const DomSchema = z.enum(['low', 'high']);
export type Dom = z.infer<typeof DomSchema>;

/**
 * Node ids are short identifiers so that `${id}` references are unambiguous. The MAS-Orchestra
 * prompt asks for "alphanumeric or underscore characters", so `1`, `2` and `3a` are ids; `-` is
 * also accepted.
 */
export const NODE_ID_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/;

export const PlanNodeSchema = z.object({
  id: z.string().regex(NODE_ID_PATTERN, 'node id must match [A-Za-z0-9_][A-Za-z0-9_-]{0,63}'),
  /** Block name from the registry (`cot`, `sc`, `reflexion`, `debate`, `search`, or a user block). */
  agent: z.string().min(1),
  /** Sub-task text. May reference upstream outputs as `${id}`; empty means the original question. */
  input: z.string(),
  /** Block parameters; missing ones take the block's defaults. */
  params: z.record(z.string(), z.unknown()).default({}),
  /** Free text the orchestrator wrote about the node; kept, never interpreted. */
  description: z.string().optional(),
});
export type PlanNode = z.infer<typeof PlanNodeSchema>;

export const PlanEdgeSchema = z.object({ from: z.string(), to: z.string() });
export type PlanEdge = z.infer<typeof PlanEdgeSchema>;

/**
 * An orchestration plan: data only, never code. A plan with no nodes is a direct answer
 * (`directAnswer`); otherwise `answer` names the sink node whose output is the final answer.
 */
export const PlanSchema = z.object({
  dom: DomSchema,
  thinking: z.string().optional(),
  nodes: z.array(PlanNodeSchema),
  edges: z.array(PlanEdgeSchema).default([]),
  answer: z.string().optional(),
  directAnswer: z.string().optional(),
});
export type Plan = z.infer<typeof PlanSchema>;

/** Stable codes for everything that can be wrong with plan text or a plan graph. */
export const DiagnosticCodeSchema = z.enum([
  'empty_output',
  'no_plan_found',
  'json_syntax',
  'xml_syntax',
  'schema',
  'unbalanced_edge',
  'duplicate_id',
  'unknown_agent',
  'dangling_edge',
  'no_start_node',
  'multiple_sinks',
  'answer_not_sink',
  'unreachable_node',
  'cycle',
  /** No longer produced (now the warning of the same code); kept so stored episodes still read. */
  'dangling_ref',
  /** No longer produced (now the warning of the same code, the graph repaired); kept for stored episodes. */
  'ref_edge_mismatch',
  'invalid_params',
  'missing_param',
  'dom_violation',
  'too_large',
  /** The output stops inside the plan (a value, a tag), as when a model hits its token limit. */
  'truncated',
  /** A bug in orchrm while reading the plan; never the model's fault. */
  'internal_error',
]);
export type DiagnosticCode = z.infer<typeof DiagnosticCodeSchema>;

/** One problem found in plan text or a plan graph. `path` locates it (e.g. `nodes[2].agent`). */
export const DiagnosticSchema = z.object({
  code: DiagnosticCodeSchema,
  message: z.string(),
  path: z.string(),
});
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

/** A non-fatal observation made while parsing, e.g. an edge written without its wrapper. */
export const WarningSchema = z.object({ code: z.string(), message: z.string(), path: z.string() });
export type PlanWarning = z.infer<typeof WarningSchema>;

export type PlanParseResult =
  | { ok: true; plan: Plan; warnings: PlanWarning[] }
  | { ok: false; diagnostics: Diagnostic[]; warnings: PlanWarning[] };
