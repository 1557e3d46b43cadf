import type { Rng } from '../../../core/index.js';
import type { Relation, RelationKind } from './arith-graph.js';
import { MAX_VALUE, applyRelation } from './arith-graph.js';

/** Scaling is only offered below this, so long chains do not grow past {@link MAX_VALUE}. */
const MAX_SCALED_VALUE = 400;
/** "Product of two small values": both factors at most this. */
const MAX_FACTOR = 30;
const MAX_OFFSET = 15;

export interface ValuedParent {
  id: string;
  value: number;
}

/** A relation with its value. */
export interface ChosenRelation extends Relation {
  value: number;
}

function make(kind: RelationKind, parents: readonly ValuedParent[], constant: number): ChosenRelation {
  const value = applyRelation(kind, parents.map((parent) => parent.value), constant);
  return { kind, parents: parents.map((parent) => parent.id), constant, value };
}

/**
 * Draws a relation over exactly these parents whose value is an integer in [1, MAX_VALUE]:
 * one parent -> `times` | `more` | `fewer`; two -> `sum` | `difference` (larger first) |
 * `product` (small factors); more -> `sum`. Undefined when no relation fits.
 */
export function chooseRelation(rng: Rng, parents: readonly ValuedParent[]): ChosenRelation | undefined {
  const candidates: (() => ChosenRelation)[] = [];
  const [first, second] = parents;
  if (first === undefined) return undefined;
  if (parents.length === 1) {
    const value = first.value;
    if (value <= MAX_SCALED_VALUE) candidates.push(() => make('times', parents, rng.int(2, 4)));
    if (value + MAX_OFFSET <= MAX_VALUE) candidates.push(() => make('more', parents, rng.int(1, MAX_OFFSET)));
    if (value >= 2) candidates.push(() => make('fewer', parents, rng.int(1, Math.min(MAX_OFFSET, value - 1))));
  } else {
    let total = 0;
    for (const parent of parents) total += parent.value;
    if (total <= MAX_VALUE) candidates.push(() => make('sum', rng.shuffle(parents), 0));
    if (second !== undefined && parents.length === 2) {
      if (first.value !== second.value) {
        candidates.push(() => make('difference', first.value > second.value ? [first, second] : [second, first], 0));
      }
      if (first.value <= MAX_FACTOR && second.value <= MAX_FACTOR && first.value >= 2 && second.value >= 2) {
        candidates.push(() => make('product', rng.shuffle(parents), 0));
      }
    }
  }
  return candidates.length === 0 ? undefined : rng.pick(candidates)();
}
