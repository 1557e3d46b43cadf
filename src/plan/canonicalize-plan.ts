import type { Plan, PlanEdge, PlanNode } from '../core/index.js';
import { applyParamDefaults } from './block-params.js';
import type { BlockCatalog } from './block-specs.js';
import { buildGraph, EdgeMap, linkedEdges, topologicalOrder } from './plan-graph.js';

export interface CanonicalPlanOptions {
  /** Keep the orchestrator's free-text reasoning. @default false */
  includeThinking?: boolean;
  /** Keep node descriptions. @default true */
  includeDescriptions?: boolean;
  /**
   * The plan's edges already hold every edge its references imply, as a `parsePlan` result's
   * do (the parsers link them): the inputs are then not read again for references.
   * @default false
   */
  referencesLinked?: boolean;
}

/** Whitespace other than a single space between other characters: what `normalizeWhitespace` changes. */
const ABNORMAL_WHITESPACE = /[^\S ]| {2}|^ | $/;

/** Collapses runs of whitespace to one space and trims: layout is not content. */
export function normalizeWhitespace(text: string): string {
  // Most inputs are already normal (a parsed plan's text is mostly single-spaced prose): one
  // test tells, and only the others pay for the replace.
  return ABNORMAL_WHITESPACE.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
}

function sortedParams(params: Record<string, unknown>): Record<string, unknown> {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(params).sort()) if (params[key] !== undefined) sorted[key] = params[key];
  return sorted;
}

/**
 * The canonical form of a plan: canonical agent names, params with defaults applied in key
 * order, nodes in layered topological order (ids sorted within a layer), edges deduplicated
 * (with those references imply added) and sorted, whitespace normalised, the answer node made explicit, thinking dropped unless
 * asked for. Two plans that differ only in formatting have equal canonical forms, and
 * `renderPlan` prints exactly this.
 */
export function canonicalizePlan(plan: Plan, catalog: BlockCatalog, options: CanonicalPlanOptions = {}): Plan {
  const { includeThinking = false, includeDescriptions = true, referencesLinked = false } = options;
  const nodesById = new Map<string, PlanNode>();
  for (const node of applyParamDefaults(plan, catalog)) {
    if (nodesById.has(node.id)) continue;
    const canonical: PlanNode = { id: node.id, agent: node.agent, input: normalizeWhitespace(node.input), params: sortedParams(node.params) };
    const description = includeDescriptions && node.description !== undefined ? normalizeWhitespace(node.description) : '';
    if (description !== '') canonical.description = description;
    nodesById.set(node.id, canonical);
  }
  // Edges that references imply are made explicit, so a plan built in code and the same plan
  // parsed from text (where the parser adds them) have one canonical form.
  const planEdges = referencesLinked ? plan.edges : linkedEdges(plan.nodes, plan.edges);
  const graph = buildGraph([...nodesById.keys()], planEdges);
  const { order, blocked } = topologicalOrder(graph);
  const ordered = [...order, ...blocked];
  const rank = new Map(ordered.map((id, index) => [id, index]));

  const seenEdges = new EdgeMap<true>();
  const edges: PlanEdge[] = [];
  for (const edge of planEdges) {
    if (!seenEdges.has(edge.from, edge.to)) {
      seenEdges.set(edge.from, edge.to, true);
      edges.push({ from: edge.from, to: edge.to });
    }
  }
  const position = (id: string) => rank.get(id) ?? Number.MAX_SAFE_INTEGER;
  edges.sort((a, b) => position(a.from) - position(b.from) || position(a.to) - position(b.to) || compare(a.from, b.from) || compare(a.to, b.to));

  const canonical: Plan = { dom: plan.dom, nodes: ordered.map((id) => nodesById.get(id)!), edges };
  const thinking = includeThinking && plan.thinking !== undefined ? normalizeWhitespace(plan.thinking) : '';
  if (thinking !== '') canonical.thinking = thinking;
  const sinks = ordered.filter((id) => (graph.successors.get(id) ?? []).length === 0);
  const answer = plan.answer ?? (sinks.length === 1 ? sinks[0] : undefined);
  if (answer !== undefined && canonical.nodes.length > 0) canonical.answer = answer;
  if (plan.directAnswer !== undefined && canonical.nodes.length === 0) canonical.directAnswer = normalizeWhitespace(plan.directAnswer);
  return canonical;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
