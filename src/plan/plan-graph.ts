import type { PlanEdge, PlanNode } from '../core/index.js';

/** Longest `${...}` body looked at; references are short ids, so the scan stays linear. */
const MAX_REFERENCE_LENGTH = 128;

/** Every `${id}` in an input, in order of appearance, bodies trimmed. */
export function extractReferences(input: string): string[] {
  const references: string[] = [];
  let close = -1;
  for (let start = input.indexOf('${'); start !== -1; start = input.indexOf('${', start + 2)) {
    const bodyStart = start + 2;
    // The first `}` after the body's start, found once and reused until passed: linear overall.
    if (close < bodyStart) close = input.indexOf('}', bodyStart);
    if (close === -1) break;
    if (close - bodyStart < MAX_REFERENCE_LENGTH) references.push(input.slice(bodyStart, close).trim());
  }
  return references;
}

/**
 * The `${id}` references of an input that name a node in `ids`, distinct, in order. Any other
 * `${...}` is text: LaTeX such as `${(3^k)}^6` or `${AC}$` in a copied problem, or an id no
 * node has (the MAS-Orchestra runner leaves such text as it is).
 */
export function nodeReferences(input: string, ids: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const reference of extractReferences(input)) if (ids.has(reference)) found.add(reference);
  return [...found];
}

/**
 * The edges a plan's references imply: `X -> Y` for every `${X}` in Y's input that names
 * another node, whether or not the plan wrote that edge. A reference is data flow, so Y must
 * run after X (MAS-Orchestra's prompt rule 12a); the parser adds missing ones with a
 * `ref_edge_mismatch` warning, and the validator and executor read plans built in code the
 * same way. The first node with an id speaks for it (duplicate ids are refused anyway).
 */
export function referenceEdges(nodes: readonly PlanNode[]): PlanEdge[] {
  const ids = new Set(nodes.map((node) => node.id));
  const seen = new Set<string>();
  const edges: PlanEdge[] = [];
  for (const node of nodes) {
    if (seen.has(node.id)) continue;
    seen.add(node.id);
    for (const reference of nodeReferences(node.input, ids)) if (reference !== node.id) edges.push({ from: reference, to: node.id });
  }
  return edges;
}

/** `edges` followed by the reference edges they lack (see `referenceEdges`), each pair once. */
export function linkedEdges(nodes: readonly PlanNode[], edges: readonly PlanEdge[]): PlanEdge[] {
  const implied = referenceEdges(nodes);
  const linked = [...edges];
  if (implied.length === 0) return linked;
  const keys = new Set(edges.map((edge) => `${edge.from}\u0000${edge.to}`));
  for (const edge of implied) {
    const key = `${edge.from}\u0000${edge.to}`;
    if (!keys.has(key)) {
      keys.add(key);
      linked.push(edge);
    }
  }
  return linked;
}

/** Values keyed by an edge's (from, to) pair, without building a key string per lookup. */
export class EdgeMap<V> {
  private readonly byFrom = new Map<string, Map<string, V>>();

  get(from: string, to: string): V | undefined {
    return this.byFrom.get(from)?.get(to);
  }

  has(from: string, to: string): boolean {
    return this.byFrom.get(from)?.has(to) ?? false;
  }

  set(from: string, to: string, value: V): void {
    let targets = this.byFrom.get(from);
    if (targets === undefined) this.byFrom.set(from, (targets = new Map()));
    targets.set(to, value);
  }
}

/** Adjacency over distinct node ids; edges to unknown ids are left out. */
export interface PlanGraph {
  ids: readonly string[];
  successors: ReadonlyMap<string, readonly string[]>;
  inDegree: ReadonlyMap<string, number>;
}

export function buildGraph(ids: readonly string[], edges: readonly PlanEdge[]): PlanGraph {
  const known = new Set(ids);
  const successors = new Map<string, string[]>(ids.map((id) => [id, []]));
  const inDegree = new Map<string, number>(ids.map((id) => [id, 0]));
  for (const edge of edges) {
    if (!known.has(edge.from) || !known.has(edge.to)) continue;
    successors.get(edge.from)!.push(edge.to);
    inDegree.set(edge.to, (inDegree.get(edge.to) ?? 0) + 1);
  }
  return { ids, successors, inDegree };
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Kahn's algorithm in layers: sources first, then everything whose inputs are done, ids sorted
 * within a layer. The order therefore depends only on the graph, never on how it was written.
 * Nodes on or behind a cycle are returned in `blocked`.
 */
export function topologicalOrder(graph: PlanGraph): { order: string[]; blocked: string[] } {
  const remaining = new Map(graph.inDegree);
  const order: string[] = [];
  let layer = graph.ids.filter((id) => remaining.get(id) === 0).sort(byCodePoint);
  while (layer.length > 0) {
    order.push(...layer);
    const next: string[] = [];
    for (const id of layer) {
      for (const successor of graph.successors.get(id) ?? []) {
        const degree = (remaining.get(successor) ?? 0) - 1;
        remaining.set(successor, degree);
        if (degree === 0) next.push(successor);
      }
    }
    layer = next.sort(byCodePoint);
  }
  const placed = new Set(order);
  return { order, blocked: graph.ids.filter((id) => !placed.has(id)).sort(byCodePoint) };
}

/**
 * The nodes on or behind a cycle, sorted: `topologicalOrder(graph).blocked` without building
 * the order (Kahn's algorithm in any order places the same nodes).
 */
export function blockedByCycles(graph: PlanGraph): string[] {
  const remaining = new Map(graph.inDegree);
  const pending = graph.ids.filter((id) => remaining.get(id) === 0);
  let placedCount = 0;
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    placedCount++;
    for (const successor of graph.successors.get(id) ?? []) {
      const degree = (remaining.get(successor) ?? 0) - 1;
      remaining.set(successor, degree);
      if (degree === 0) pending.push(successor);
    }
  }
  if (placedCount === graph.ids.length) return [];
  return graph.ids.filter((id) => (remaining.get(id) ?? 0) > 0).sort(byCodePoint);
}

/** Ids reachable from `starts` (the starts included). */
export function reachableFrom(graph: PlanGraph, starts: readonly string[]): Set<string> {
  const reached = new Set(starts);
  const pending = [...starts];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    for (const successor of graph.successors.get(id) ?? []) {
      if (!reached.has(successor)) {
        reached.add(successor);
        pending.push(successor);
      }
    }
  }
  return reached;
}

/**
 * Cycles among the `blocked` nodes of a topological sort. Every blocked node has a blocked
 * predecessor, so walking predecessors must revisit a node; each walk reports the loop it
 * closes, and nodes seen by earlier walks are not walked again (linear overall).
 */
export function findCycles(graph: PlanGraph, blocked: readonly string[]): string[][] {
  const blockedSet = new Set(blocked);
  const predecessor = new Map<string, string>();
  for (const [from, successors] of graph.successors) {
    if (!blockedSet.has(from)) continue;
    for (const to of successors) if (blockedSet.has(to) && !predecessor.has(to)) predecessor.set(to, from);
  }
  const visited = new Set<string>();
  const cycles: string[][] = [];
  for (const start of blocked) {
    if (visited.has(start)) continue;
    const walk: string[] = [];
    const positionInWalk = new Map<string, number>();
    let current: string | undefined = start;
    while (current !== undefined && !visited.has(current)) {
      visited.add(current);
      positionInWalk.set(current, walk.length);
      walk.push(current);
      current = predecessor.get(current);
    }
    const loopStart = current === undefined ? undefined : positionInWalk.get(current);
    if (loopStart !== undefined) cycles.push(walk.slice(loopStart).reverse());
  }
  return cycles;
}
