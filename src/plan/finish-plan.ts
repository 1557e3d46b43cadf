/**
 * What the JSON and XML plan readers share: their options, the values and params they read
 * (`readDom`, `readNodeId`, `collectParams`), how a text ends (`PlanEnding`), and the finishing
 * step that turns a draft into a plan (`finishPlan`). Validation is `validate-plan.ts`.
 */
import { type Diagnostic, type Dom, NODE_ID_PATTERN, type Plan, type PlanEdge, type PlanNode, type PlanWarning } from '../core/index.js';
import { blockParamInfo, coerceParamValue, paramKind, parseParamText, resolveParamKey } from './block-params.js';
import type { BlockCatalog, BlockSpec } from './block-specs.js';
import { nodePath, planDiagnostic, planWarning } from './plan-diagnostic.js';
import { EdgeMap, extractReferences } from './plan-graph.js';

/** Options shared by the plan parsers. */
export interface PlanTextOptions {
  /**
   * Blocks that agent names resolve against (aliases such as `CoTAgent` become `cot`).
   * @default the built-in blocks
   */
  catalog?: BlockCatalog;
  /**
   * The DoM the orchestrator was asked for. Used when the text states none; validation then
   * enforces it. @default inferred: `low` for at most one agent, else `high`
   */
  dom?: Dom;
}

/** Reads a DoM as written (`low`, `High`, `high DoM`); reports `schema` for anything else. */
export function readDom(value: unknown, path: string, diagnostics: Diagnostic[]): Dom | undefined {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  const low = text.includes('low');
  const high = text.includes('high');
  if (low !== high) return low ? 'low' : 'high';
  diagnostics.push(planDiagnostic('schema', path, `DoM must be "low" or "high", got ${JSON.stringify(value)}`));
  return undefined;
}

/** A node id as written in an edge or answer: trimmed, `${B}` read as `B`. */
export function readNodeId(text: string): string {
  const trimmed = text.trim();
  return trimmed.startsWith('${') && trimmed.endsWith('}') ? trimmed.slice(2, -1).trim() : trimmed;
}

/** One param as written: its key and its value (XML values are still text, or a list of texts). */
export interface WrittenParam {
  key: string;
  value: unknown;
  /** XML values arrive as text and are parsed JSON-ishly; JSON values are already typed. */
  fromText: boolean;
}

/**
 * Builds a node's params from what the orchestrator wrote: keys mapped to the block's own
 * (`debate_roles` -> `roles`), text parsed (`5`, `["a","b"]`), obvious type slips coerced.
 * Keys the block does not declare (`<agent_model>`, `<tools>`, roles on a CoT agent) are
 * dropped with an `ignored_key` warning, as the MAS-Orchestra runner never reads them; for
 * an unknown block, or a user block whose schema cannot be listed, they are kept as written
 * for the schema to judge.
 */
export function collectParams(
  written: readonly WrittenParam[],
  spec: BlockSpec | undefined,
  paramsPath: string,
  warnings: PlanWarning[],
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const declared = spec === undefined ? undefined : blockParamInfo(spec);
  for (const { key, value, fromText } of written) {
    const known = resolveParamKey(key, spec);
    if (known === undefined && spec !== undefined && declared !== undefined && declared.size > 0) {
      const message = `block "${spec.name}" has no param "${key}"; it was ignored (its params: ${[...declared.keys()].join(', ')})`;
      warnings.push(planWarning('ignored_key', `${paramsPath}.${key}`, message));
      continue;
    }
    const resolved = known ?? key;
    const path = `${paramsPath}.${resolved}`;
    const kind = paramKind(spec, resolved);
    const parsed = fromText && typeof value === 'string' ? parseParamText(value, kind) : value;
    if (Object.hasOwn(params, resolved)) {
      warnings.push(planWarning('ignored_key', path, `param "${resolved}" was written twice; the last value is used`));
    }
    params[resolved] = coerceParamValue(parsed, kind, path, warnings);
  }
  return params;
}

/**
 * How plan text ends. An orchestrator cut off at its token limit stops in the middle of its
 * plan; the parser names that (`truncated`) instead of reporting what went missing
 * (`multiple_sinks` after the last edges were lost), and never runs the part it got: a plan cut
 * after its third agent would otherwise run with an intermediate step as its answer.
 * - `complete`: the plan was finished;
 * - `truncated`: the text stops with the plan still open (inside an agent, a value, the edge
 *   block, a JSON string or object, or a tag being written);
 * - `inside_thinking`: the text stops inside `<thinking>`, which is `truncated` only when no
 *   plan came before it.
 */
export type PlanEnding = { kind: 'complete' } | { kind: 'truncated' | 'inside_thinking'; diagnostic: Diagnostic };

/** How to avoid a cut-off plan, ending every `truncated` message. */
export const FIX = 'it was probably cut off at the token limit: raise max_tokens or ask for a shorter plan';
/** The verdict for text whose plan was finished. */
export const COMPLETE: PlanEnding = { kind: 'complete' };
/** The `truncated` verdict with `message`, followed by FIX. */
export const truncated = (message: string): PlanEnding => ({ kind: 'truncated', diagnostic: planDiagnostic('truncated', '', `${message}; ${FIX}`) });

/** A plan as read from text, before the common clean-up; `dom` may still be unknown. */
export interface PlanDraft {
  dom: Dom | undefined;
  thinking?: string | undefined;
  nodes: PlanNode[];
  edges: PlanEdge[];
  answer?: string | undefined;
  directAnswer?: string | undefined;
}

/**
 * The steps both parsers share: read an input of `""` as empty (the original question), drop
 * repeated edges, settle the references against the edges (see `linkReferences`), settle the
 * DoM (written, else asked for, else inferred from the node count), name the unique sink as
 * the answer when none was named, and keep a direct answer only when there are no nodes.
 */
export function finishPlan(draft: PlanDraft, askedDom: Dom | undefined, warnings: PlanWarning[]): Plan {
  // MAS-Orchestra prompts: 'If <agent_input> left empty (""), the parser will automatically replace it with the original question.'
  for (const node of draft.nodes) if (node.input.includes('""') && node.input.trim() === '""') node.input = '';
  const edges: PlanEdge[] = [];
  const seen = new EdgeMap<true>();
  draft.edges.forEach((edge, index) => {
    if (seen.has(edge.from, edge.to)) {
      warnings.push(planWarning('duplicate_edge', `edges[${index}]`, `edge ${edge.from} -> ${edge.to} is written more than once; kept once`));
      return;
    }
    seen.set(edge.from, edge.to, true);
    edges.push(edge);
  });
  linkReferences(draft.nodes, edges, warnings);

  let dom = draft.dom;
  if (dom === undefined) {
    dom = askedDom ?? (draft.nodes.length <= 1 ? 'low' : 'high');
    const why = askedDom ? 'the DoM that was asked for' : `inferred from ${draft.nodes.length} agent(s)`;
    warnings.push(planWarning('dom_inferred', 'dom', `the plan states no DoM; using "${dom}" (${why})`));
  }

  const plan: Plan = { dom, nodes: draft.nodes, edges };
  if (draft.thinking !== undefined && draft.thinking !== '') plan.thinking = draft.thinking;
  const answer = draft.answer ?? uniqueSink(draft.nodes, edges);
  if (answer !== undefined && draft.nodes.length > 0) plan.answer = answer;
  if (draft.directAnswer !== undefined) {
    if (draft.nodes.length === 0) plan.directAnswer = draft.directAnswer;
    else warnings.push(planWarning('ignored_key', 'directAnswer', 'a direct answer was written next to agents; the agents are used and the direct answer ignored'));
  }
  return plan;
}

/** The one declared node with no outgoing edge, if there is exactly one. */
function uniqueSink(nodes: readonly PlanNode[], edges: readonly PlanEdge[]): string | undefined {
  const hasOutgoing = new Set(edges.map((edge) => edge.from));
  const sinks = nodes.filter((node) => !hasOutgoing.has(node.id));
  return sinks.length === 1 ? sinks[0]?.id : undefined;
}

/**
 * Settles MAS-Orchestra's rule "an edge exists iff the input uses `${X}`", which real plans
 * (the reference's own prompt examples among them) break both ways, by repairing instead of
 * refusing. Each repair is a `ref_edge_mismatch` warning:
 * - `${X}` naming another node with no edge `X -> Y`: the edge is added, so Y runs after X and
 *   `${X}` is replaced by X's answer.
 * - an edge `X -> Y` whose target never uses `${X}`: kept; it orders execution only, and Y sees
 *   its own input (or the question when empty), not X's answer, as in the reference.
 * A `${...}` that names no node stays text (LaTeX like `${(3^k)}^6`); when it looks like an id
 * it is reported as `dangling_ref` (a typo or a missing node), and a node naming itself as
 * `self_reference`. Edges are appended to `edges` in place.
 */
export function linkReferences(nodes: readonly PlanNode[], edges: PlanEdge[], warnings: PlanWarning[]): void {
  const firstIndex = new Map<string, number>();
  nodes.forEach((node, index) => {
    if (!firstIndex.has(node.id)) firstIndex.set(node.id, index);
  });
  const writtenCount = edges.length;
  const written = new EdgeMap<true>();
  for (const edge of edges) written.set(edge.from, edge.to, true);
  const referenced = new EdgeMap<true>();
  nodes.forEach((node, index) => {
    if (firstIndex.get(node.id) !== index) return;
    for (const reference of new Set(extractReferences(node.input))) {
      const path = nodePath(index, 'input');
      if (reference === node.id) {
        warnings.push(planWarning('self_reference', path, `the input of "${node.id}" uses \${${reference}}, its own output; it is left as text`));
      } else if (firstIndex.has(reference)) {
        referenced.set(reference, node.id, true);
        if (written.has(reference, node.id)) continue;
        edges.push({ from: reference, to: node.id });
        warnings.push(planWarning('ref_edge_mismatch', path, `the input uses \${${reference}} but no edge ${reference} -> ${node.id} was written; added it, so "${node.id}" runs after "${reference}" and receives its answer`));
      } else if (NODE_ID_PATTERN.test(reference)) {
        warnings.push(planWarning('dangling_ref', path, `the input uses \${${reference}}, but no node has id "${reference}"; it is left as text`));
      }
    }
  });
  edges.slice(0, writtenCount).forEach((edge, index) => {
    if (!firstIndex.has(edge.from) || !firstIndex.has(edge.to) || edge.from === edge.to) return;
    if (referenced.has(edge.from, edge.to)) return;
    const message = `edge ${edge.from} -> ${edge.to} exists but the input of "${edge.to}" never uses \${${edge.from}}; "${edge.to}" runs after "${edge.from}" without seeing its answer`;
    warnings.push(planWarning('ref_edge_mismatch', `edges[${index}]`, message));
  });
}
