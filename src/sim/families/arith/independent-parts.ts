import type { ArithGraph } from './arith-graph.js';

/**
 * How many independent sub-computations a call that works out `order` (the relations it
 * computes, parents first) for `targets` must keep apart: the relations it works below its
 * targets, grouped so that groups share no worked relation and no given value. A single chain is
 * 1; a target combining two unrelated parts is 2; a call that only combines handed-over values
 * is 1. Linear in the relations worked.
 */
export function independentParts(graph: ArithGraph, targets: readonly string[], order: readonly string[]): number {
  const asked = new Set(targets);
  const below = order.filter((id) => !asked.has(id));
  if (below.length === 0) return 1;
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root) as string;
    parent.set(id, root);
    return root;
  };
  const union = (left: string, right: string) => {
    const a = find(left);
    const b = find(right);
    if (a !== b) parent.set(a, b);
  };
  for (const id of below) parent.set(id, id);
  for (const id of below) {
    const definition = graph.definitions.get(id);
    if (definition === undefined || definition.kind === 'given') continue;
    // Worked parents and shared given values tie a relation to its part.
    for (const input of definition.parents) union(id, parent.has(input) ? input : `given:${input}`);
  }
  const roots = new Set(below.map(find));
  return Math.max(1, roots.size);
}
