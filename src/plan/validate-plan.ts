import { type Diagnostic, type Dom, NODE_ID_PATTERN, type Plan, type PlanEdge, type PlanNode } from '../core/index.js';
import { blockParamInfo } from './block-params.js';
import type { BlockCatalog, BlockSpec } from './block-specs.js';
import { nodePath, planDiagnostic } from './plan-diagnostic.js';
import { blockedByCycles, buildGraph, EdgeMap, findCycles, linkedEdges, reachableFrom } from './plan-graph.js';

export interface ValidatePlanOptions {
  /** The DoM the plan was asked for; `low` allows at most one agent even if the plan says `high`. */
  dom?: Dom | undefined;
}

/**
 * Checks a plan against the MAS-Orchestra graph rules and the block catalog, collecting every
 * problem (not just the first): ids, agent names, params, edges, start and sink, reachability,
 * cycles, the answer node and the DoM. A `${X}` naming another node counts as the edge
 * `X -> Y` whether or not it was written (see `referenceEdges`); references and edges that
 * disagree are repaired by the parser with warnings, never refused. Each diagnostic has a
 * stable code, a path such as `nodes[2].agent` and a message that says how to fix it.
 *
 * @example
 * validatePlan({ dom: 'low', nodes: [], edges: [], directAnswer: '42' }, catalog) // []
 */
export function validatePlan(plan: Plan, catalog: BlockCatalog, options: ValidatePlanOptions = {}): Diagnostic[] {
  return validateLinkedPlan(plan, catalog, options, linkedEdges(plan.nodes, plan.edges));
}

/**
 * `validatePlan` given the plan's edges with every reference edge already among them
 * (`linkedEdges`). The parsers' plans are such plans (`linkReferences` added the missing ones),
 * so `parsePlan` passes `plan.edges` and skips reading every input again.
 */
export function validateLinkedPlan(plan: Plan, catalog: BlockCatalog, options: ValidatePlanOptions, linked: readonly PlanEdge[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const push = (code: Diagnostic['code'], path: string, message: string) => diagnostics.push(planDiagnostic(code, path, message));
  const firstIndex = new Map<string, number>();

  plan.nodes.forEach((node, index) => {
    if (!NODE_ID_PATTERN.test(node.id)) {
      push('schema', nodePath(index, 'id'), `node id ${JSON.stringify(node.id)} is not valid; use up to 64 letters, digits, "_" or "-" (e.g. "A", "solve_1", "2"), no spaces`);
    } else if (firstIndex.has(node.id)) {
      push('duplicate_id', nodePath(index, 'id'), `node id "${node.id}" is also used by nodes[${firstIndex.get(node.id)}]; give every node a unique id`);
    } else firstIndex.set(node.id, index);
    const spec = catalog.resolve(node.agent);
    if (!spec) {
      const names = catalog.specs().map((known) => known.name).join(', ');
      push('unknown_agent', nodePath(index, 'agent'), `no block is named "${node.agent}"; use one of: ${names}`);
    } else diagnostics.push(...validateNodeParams(node, index, spec));
  });

  if (plan.nodes.length === 0 && (plan.directAnswer === undefined || plan.directAnswer.trim() === '')) {
    push('schema', 'directAnswer', 'the plan has no nodes and no direct answer; add agents or answer directly');
  }
  plan.edges.forEach((edge, index) => {
    for (const end of ['from', 'to'] as const) {
      if (!firstIndex.has(edge[end])) {
        push('dangling_edge', `edges[${index}].${end}`, `edge ${edge.from} -> ${edge.to} names "${edge[end]}", which is not a node; declare it or fix the id`);
      }
    }
  });

  const edgeIndex = new EdgeMap<number>();
  plan.edges.forEach((edge, index) => {
    if (!edgeIndex.has(edge.from, edge.to)) edgeIndex.set(edge.from, edge.to, index);
  });
  // An edge only a reference implies (a plan built in code) is located at the referring input.
  const edgePath = (from: string, to: string) => {
    const index = edgeIndex.get(from, to);
    return index !== undefined ? `edges[${index}]` : nodePath(firstIndex.get(to) ?? -1, 'input');
  };
  const ids = [...firstIndex.keys()];
  const graph = buildGraph(ids, linked);
  if (ids.length > 0) checkShape(plan, graph, edgePath, push);

  const askedLow = plan.dom === 'low' || options.dom === 'low';
  if (askedLow && plan.nodes.length > 1) {
    const why = plan.dom === 'low' ? 'the plan says low DoM' : 'a low-DoM plan was asked for';
    push('dom_violation', 'dom', `${why}, which allows at most one agent, but the plan has ${plan.nodes.length}; answer directly or keep a single agent`);
  }
  return diagnostics;
}

type Push = (code: Diagnostic['code'], path: string, message: string) => void;
type EdgePath = (from: string, to: string) => string;

function checkShape(plan: Plan, graph: ReturnType<typeof buildGraph>, edgePath: EdgePath, push: Push): void {
  const starts = graph.ids.filter((id) => graph.inDegree.get(id) === 0);
  if (starts.length === 0) push('no_start_node', 'edges', 'every node has an incoming edge, so nothing can run first; remove an edge so some node starts from the question');
  const sinks = graph.ids.filter((id) => (graph.successors.get(id) ?? []).length === 0);
  if (sinks.length > 1) {
    push('multiple_sinks', 'edges', `nodes ${sinks.join(', ')} have no outgoing edge; a plan has exactly one final node, so route the others into it`);
  }
  if (starts.length > 0) {
    const reached = reachableFrom(graph, starts);
    plan.nodes.forEach((node, index) => {
      if (graph.inDegree.has(node.id) && !reached.has(node.id)) {
        push('unreachable_node', nodePath(index), `node "${node.id}" cannot be reached from any start node (it sits on or behind a cycle); remove the loop feeding it`);
      }
    });
  }
  for (const cycle of findCycles(graph, blockedByCycles(graph))) {
    push('cycle', edgePath(cycle[cycle.length - 1]!, cycle[0]!), `the edges form a cycle ${[...cycle, cycle[0]].join(' -> ')}; plans must be acyclic, so remove one of these edges`);
  }
  if (plan.answer !== undefined) {
    if (!graph.inDegree.has(plan.answer)) push('answer_not_sink', 'answer', `the answer names "${plan.answer}", which is not a node; name the final node`);
    else if (!sinks.includes(plan.answer)) push('answer_not_sink', 'answer', `the answer node "${plan.answer}" has outgoing edges; the answer must be the final node (${sinks.join(', ') || 'none'})`);
  }
}

/** A one-line hint of what a param takes, from the block's schema. */
function paramHint(spec: BlockSpec, key: string): string {
  const info = blockParamInfo(spec).get(key);
  if (info?.kind === 'array') {
    const minimum = typeof info.schema.minItems === 'number' ? ` of at least ${info.schema.minItems} items` : '';
    return key === 'roles' ? `a list${minimum} such as ["Optimist", "Skeptic"]` : `a list${minimum}`;
  }
  if (!info || info.kind === 'unknown') return 'a valid value';
  return `${/^[aeiou]/.test(info.kind) ? 'an' : 'a'} ${info.kind}`;
}

/**
 * Checks a node's params against its block: required params (`missing_param`) and the block's
 * zod schema (`invalid_params`, one diagnostic per issue, located at the param).
 */
function validateNodeParams(node: PlanNode, index: number, spec: BlockSpec): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const missing = new Set<string>();
  for (const key of spec.requiredParams) {
    if (node.params[key] === undefined) {
      missing.add(key);
      const message = `block "${spec.name}" needs params.${key}: ${paramHint(spec, key)}`;
      diagnostics.push(planDiagnostic('missing_param', nodePath(index, `params.${key}`), message));
    }
  }
  const result = spec.paramsSchema.safeParse(node.params);
  if (result.success) return diagnostics;
  const known = [...blockParamInfo(spec).keys()].join(', ');
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.');
    if (issue.path.length === 1 && missing.has(key) && node.params[key] === undefined) continue;
    if (issue.code === 'unrecognized_keys') {
      for (const unknownKey of issue.keys) {
        const message = `block "${spec.name}" has no param "${unknownKey}"; remove it (known params: ${known || 'none'})`;
        diagnostics.push(planDiagnostic('invalid_params', nodePath(index, `params.${unknownKey}`), message));
      }
      continue;
    }
    const path = nodePath(index, key === '' ? 'params' : `params.${key}`);
    const hint = issue.path.length >= 1 ? `; give ${paramHint(spec, String(issue.path[0]))}` : '';
    diagnostics.push(planDiagnostic('invalid_params', path, `${issue.message}${hint}`));
  }
  return diagnostics;
}
