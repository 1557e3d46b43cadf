import type { ArithGraph } from './arith-graph.js';

/** The relations to work out for some targets, and how many statements they read. */
export interface StepPlan {
  /** Quantities defined by a relation that must be computed, parents before children. */
  order: string[];
  /** Statements the computation reads: the relations in `order` plus the given values they use. */
  neededStatements: number;
}

/**
 * Walks back from the targets (in order, parents in sentence order) to given values, stopping at
 * quantities handed over as known. The post-order is a topological order that is stable for a
 * task, so step i is the same quantity on every call with the same request.
 */
export function planSteps(graph: ArithGraph, targets: readonly string[], givens: ReadonlyMap<string, number>): StepPlan {
  const order: string[] = [];
  const seen = new Set<string>();
  let leaves = 0;
  const visit = (id: string): void => {
    if (seen.has(id) || givens.has(id)) return;
    seen.add(id);
    const definition = graph.definitions.get(id);
    if (definition === undefined) return;
    if (definition.kind === 'given') {
      leaves++;
      return;
    }
    for (const parent of definition.parents) visit(parent);
    order.push(id);
  };
  for (const target of targets) visit(target);
  return { order, neededStatements: order.length + leaves };
}
