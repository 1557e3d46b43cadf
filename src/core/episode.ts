import { z } from 'zod';
import { BlockArtifactsSchema } from './artifacts.js';
import { LlmCallRecordSchema } from './llm-call.js';
import { DiagnosticSchema, PlanSchema, WarningSchema } from './plan.js';
import { TaskSchema } from './task.js';
import { UsageByRoleSchema, UsageSchema } from './usage.js';

/** Version of the Episode record; bumped on any incompatible change (docs/episode-format.md). */
export const EPISODE_SCHEMA_VERSION = 1;

export const EpisodeStatusSchema = z.enum([
  'ok',
  'parse_error',
  'invalid_plan',
  'runtime_error',
  'timeout',
  'budget_exceeded',
  /**
   * A model call failed after its retries because of the server (unreachable, 5xx, 429, timeout,
   * a broken body, a refused key; `isServerFailure`): the episode says nothing about its plan, so
   * it is never mined, and a resumed collection redoes it.
   */
  'server_error',
]);
export type EpisodeStatus = z.infer<typeof EpisodeStatusSchema>;

export const NodeStatusSchema = z.enum(['ok', 'runtime_error', 'timeout', 'budget_exceeded', 'skipped']);
export type NodeStatus = z.infer<typeof NodeStatusSchema>;

/** Everything one plan node did: its resolved input, every call, its artifacts and answer. */
export const NodeTraceSchema = z.object({
  nodeId: z.string(),
  agent: z.string(),
  /** Input after `${id}` substitution (the original question when the plan's input was empty). */
  input: z.string(),
  /** Parameters after defaults were applied. */
  params: z.record(z.string(), z.unknown()),
  status: NodeStatusSchema,
  /** Why the node did not finish ok. */
  reason: z.string().optional(),
  /** The node's full final text (reasoning and answer). */
  output: z.string().optional(),
  /** The extracted answer passed downstream. */
  answer: z.string().optional(),
  calls: z.array(LlmCallRecordSchema),
  artifacts: BlockArtifactsSchema.optional(),
  usage: UsageSchema,
  /** Start time relative to the episode's start. */
  startedAfterMs: z.number().nonnegative(),
  latencyMs: z.number().nonnegative(),
});
export type NodeTrace = z.infer<typeof NodeTraceSchema>;

export const GradeSchema = z.object({
  correct: z.boolean(),
  /** Optional graded score in [0, 1] (token F1 for QA). */
  score: z.number().min(0).max(1).optional(),
  method: z.string(),
});
export type Grade = z.infer<typeof GradeSchema>;

export const OrchestratorRefSchema = z.object({
  /** Which orchestrator wrote the plan, e.g. a model name or `sim`. */
  name: z.string(),
  /** Checkpoint of that orchestrator, when it has several (the `checkpoint` pair miner reads this). */
  checkpoint: z.string().optional(),
  /** Training step of the checkpoint, so later can be told from earlier. */
  step: z.number().int().nonnegative().optional(),
});
export type OrchestratorRef = z.infer<typeof OrchestratorRefSchema>;

/** The complete, durable record of one plan written for one task and executed. */
export const EpisodeSchema = z.object({
  schemaVersion: z.literal(EPISODE_SCHEMA_VERSION),
  id: z.string().min(1),
  runId: z.string().optional(),
  task: TaskSchema,
  orchestrator: OrchestratorRefSchema,
  /** Index of this plan among the plans sampled for the same task in a run. */
  sampleIndex: z.number().int().nonnegative(),
  seed: z.number().int().optional(),
  planText: z.string(),
  planFormat: z.enum(['json', 'xml', 'unknown']),
  plan: PlanSchema.optional(),
  diagnostics: z.array(DiagnosticSchema),
  warnings: z.array(WarningSchema),
  orchestratorCall: LlmCallRecordSchema.optional(),
  nodes: z.array(NodeTraceSchema),
  finalAnswer: z.string().optional(),
  grade: GradeSchema.optional(),
  usage: UsageByRoleSchema,
  wallTimeMs: z.number().nonnegative(),
  status: EpisodeStatusSchema,
  reason: z.string().optional(),
  createdAt: z.string(),
});
export type Episode = z.infer<typeof EpisodeSchema>;
