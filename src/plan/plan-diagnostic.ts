import type { Diagnostic, DiagnosticCode, PlanWarning } from '../core/index.js';

/**
 * Codes of non-fatal observations. Unlike diagnostic codes they are not part of the core
 * contract, but they are stable so callers can filter on them.
 */
export const PLAN_WARNING_CODES = [
  /** The JSON had syntax slips (trailing commas, single quotes, comments) that were repaired. */
  'json_repaired',
  /** A non-canonical key or shape was read (e.g. `agents` for `nodes`, `source/target` edges). */
  'key_variant',
  /** `<from>/<to>` written outside an `<edge>` block (the reference's own diamond example). */
  'edge_without_wrapper',
  /** The same edge was written twice; kept once. */
  'duplicate_edge',
  /** A key or tag with no meaning in a plan was ignored. */
  'ignored_key',
  /** A param value was converted to the type its block expects (e.g. `"5"` to `5`). */
  'param_coerced',
  /** No DoM was written; it was taken from the options or inferred from the node count. */
  'dom_inferred',
  /** Several plans were found in the text; the last complete one was used. */
  'multiple_plans',
  /**
   * References and edges disagree (MAS-Orchestra rule 12): a `${X}` without its edge (the edge
   * was added) or an edge whose target never uses `${X}` (it only orders execution).
   */
  'ref_edge_mismatch',
  /** An input uses `${X}` for an id no node has; it is sent as text. */
  'dangling_ref',
  /** An input uses its own node's `${id}`; it is sent as text. */
  'self_reference',
  /** A node had no id; it was given one (`<agent_output_id>`, or `A` for a plan's only agent). */
  'id_assigned',
] as const;
export type PlanWarningCode = (typeof PLAN_WARNING_CODES)[number];

/**
 * Warnings about what a plan means rather than how it was written: something the orchestrator
 * wrote was ignored, or the graph was repaired. The canonical rendering keeps these codes (and
 * so do the reward model's features); the others are formatting noise and are dropped.
 */
export const SEMANTIC_WARNING_CODES: ReadonlySet<string> = new Set<PlanWarningCode>(['ignored_key', 'ref_edge_mismatch', 'dangling_ref', 'self_reference']);

export function planDiagnostic(code: DiagnosticCode, path: string, message: string): Diagnostic {
  return { code, message, path };
}

export function planWarning(code: PlanWarningCode, path: string, message: string): PlanWarning {
  return { code, message, path };
}

/** `nodes[2].params.roles`-style paths, shared by both parsers and the validator. */
export function nodePath(index: number, field?: string): string {
  return field === undefined ? `nodes[${index}]` : `nodes[${index}].${field}`;
}
