/**
 * The structure behind an arith task, shared by the generator (which renders it) and the reader
 * (which parses it back from text): every quantity is either given a value or defined from its
 * parents by one relation.
 */
export type RelationKind = 'sum' | 'difference' | 'times' | 'more' | 'fewer' | 'product';

export interface Relation {
  kind: RelationKind;
  /** Quantity ids in sentence order (for `difference`, minuend first). */
  parents: readonly string[];
  /** The k of `times`, `more` and `fewer`; 0 otherwise. */
  constant: number;
}

export type Definition = { kind: 'given'; value: number } | Relation;

export interface ArithGraph {
  /** Quantity id -> its definition (one sentence each). */
  definitions: Map<string, Definition>;
  /** Quantity id -> the wrong value a planted misleading note gives for it. */
  notes: Map<string, number>;
  /** The quantities the question asks for, in order. */
  targets: string[];
}

/** Values never reach this bound, so every quantity stays a small non-negative integer. */
export const MAX_VALUE = 9_999;

/** The arithmetic of a relation over its parents' values (in `parents` order). */
export function applyRelation(kind: RelationKind, inputs: readonly number[], constant: number): number {
  const first = inputs[0] ?? 0;
  const second = inputs[1] ?? 0;
  switch (kind) {
    case 'sum': {
      let total = 0;
      for (const value of inputs) total += value;
      return total;
    }
    case 'difference':
      return first - second;
    case 'times':
      return constant * first;
    case 'more':
      return first + constant;
    case 'fewer':
      return first - constant;
    case 'product':
      return first * second;
  }
}

/** The arithmetic written out, e.g. `3 + 4 + 5`, for reasoning lines. */
export function relationExpression(kind: RelationKind, inputs: readonly number[], constant: number): string {
  const [first = 0, second = 0] = inputs.map(formatNumber);
  switch (kind) {
    case 'sum':
      return inputs.map(formatNumber).join(' + ');
    case 'difference':
      return `${first} - ${second}`;
    case 'times':
      return `${constant} * ${first}`;
    case 'more':
      return `${first} + ${constant}`;
    case 'fewer':
      return `${first} - ${constant}`;
    case 'product':
      return `${first} * ${second}`;
  }
}

/**
 * Step difficulty of a relation (1 = an ordinary step), used by the worker's competence model:
 * adding or subtracting a constant is the unit; every extra term of a sum adds a quarter;
 * scaling and subtracting two quantities are a little harder; multiplying two quantities is
 * the hardest.
 */
export function relationDifficulty(relation: Relation): number {
  switch (relation.kind) {
    case 'sum':
      return 1 + 0.25 * (relation.parents.length - 1);
    case 'more':
    case 'fewer':
      return 1;
    case 'times':
    case 'difference':
      return 1.2;
    case 'product':
      return 1.5;
  }
}

/** Integers print as integers; other values (only from non-integer givens) with at most 4 decimals. */
export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return String(Math.round(value * 10_000) / 10_000);
}

/** True value of every quantity; undefined when a parent is missing or the definitions cycle. */
export function evaluateGraph(definitions: ReadonlyMap<string, Definition>): Map<string, number> | undefined {
  const values = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (id: string): boolean => {
    if (values.has(id)) return true;
    const definition = definitions.get(id);
    if (definition === undefined || visiting.has(id)) return false;
    if (definition.kind === 'given') {
      values.set(id, definition.value);
      return true;
    }
    visiting.add(id);
    const inputs: number[] = [];
    for (const parent of definition.parents) {
      if (!visit(parent)) return false;
      inputs.push(values.get(parent) ?? 0);
    }
    visiting.delete(id);
    values.set(id, applyRelation(definition.kind, inputs, definition.constant));
    return true;
  };
  for (const id of definitions.keys()) if (!visit(id)) return undefined;
  return values;
}
