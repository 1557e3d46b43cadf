import type { Rng } from '../../../core/index.js';
import type { Definition } from './arith-graph.js';
import type { ChosenRelation } from './choose-relation.js';
import { chooseRelation } from './choose-relation.js';
import { drawQuantityId } from './vocabulary.js';

/** Given values are drawn from this range: small, and never 0 or 1 so every relation reads naturally. */
const LEAF_VALUES: readonly [number, number] = [2, 20];
/** Chance that a relation inside a component takes one parent when breadth allows more. */
const UNARY_SHARE = 0.35;
/** Chances that an extra parent reuses an earlier quantity of the component (a DAG, not a tree) / is a small sub-tree. */
const REUSE_SHARE = 0.25;
const SUBTREE_SHARE = 0.25;
/** Reused quantities are at most this large, so sums along long chains stay below the value bound. */
const MAX_REUSED_VALUE = 300;
/** Bound on side sub-trees per task, so wide and deep settings keep a readable statement. */
const SUBTREE_BUDGET = 8;

/**
 * Grows the quantity graph of one task: components built as chains of relations from given
 * values up to a wanted depth, with extra parents (fan-in) that are new given values, earlier
 * quantities of the same component, or small sub-trees. Records each quantity's value and depth
 * (longest chain of relations below it; given values have depth 0).
 */
export class GraphBuilder {
  readonly definitions = new Map<string, Definition>();
  readonly values = new Map<string, number>();
  readonly depths = new Map<string, number>();
  private readonly used = new Set<string>();
  private subtreeBudget = SUBTREE_BUDGET;

  constructor(
    private readonly rng: Rng,
    private readonly breadth: number,
    /** Off in the last attempt: without reuse and sub-trees every relation always fits. */
    private readonly allowSharing: boolean,
  ) {}

  /** A new quantity with a given value. */
  leaf(): string {
    const id = drawQuantityId(this.rng, this.used);
    const value = this.rng.int(LEAF_VALUES[0], LEAF_VALUES[1]);
    this.definitions.set(id, { kind: 'given', value });
    this.values.set(id, value);
    this.depths.set(id, 0);
    return id;
  }

  /** A new quantity defined by `relation`. */
  add(relation: ChosenRelation): string {
    const id = drawQuantityId(this.rng, this.used);
    this.definitions.set(id, { kind: relation.kind, parents: relation.parents, constant: relation.constant });
    this.values.set(id, relation.value);
    let depth = 0;
    for (const parent of relation.parents) depth = Math.max(depth, this.depths.get(parent) ?? 0);
    this.depths.set(id, depth + 1);
    return id;
  }

  /** A relation over `parents`, or undefined when none keeps the value in range. */
  relate(parents: readonly string[]): string | undefined {
    const relation = chooseRelation(
      this.rng,
      parents.map((id) => ({ id, value: this.values.get(id) ?? 0 })),
    );
    return relation === undefined ? undefined : this.add(relation);
  }

  /**
   * A quantity of depth exactly `level`, its new quantities appended to `pool` (the component).
   * With `forceBreadth`, the lowest relation of the main chain takes the full breadth, so the
   * drawn breadth is always realised once.
   */
  build(level: number, pool: string[], forceBreadth: boolean): string | undefined {
    if (level === 0) {
      const id = this.leaf();
      pool.push(id);
      return id;
    }
    const fanIn =
      forceBreadth && level === 1 ? this.breadth : this.breadth === 1 || this.rng.chance(UNARY_SHARE) ? 1 : this.rng.int(2, this.breadth);
    const primary = this.build(level - 1, pool, forceBreadth);
    if (primary === undefined) return undefined;
    const parents = [primary];
    while (parents.length < fanIn) {
      const extra = this.extraParent(level, pool, parents);
      if (extra === undefined) return undefined;
      parents.push(extra);
    }
    const id = this.relate(parents);
    if (id !== undefined) pool.push(id);
    return id;
  }

  /** An extra parent of a relation at `level`: shallower than it, so the depth stays exact. */
  private extraParent(level: number, pool: string[], chosen: readonly string[]): string | undefined {
    const draw = this.rng.next();
    if (this.allowSharing && draw < REUSE_SHARE) {
      const candidates = pool.filter(
        (id) => (this.depths.get(id) ?? 0) < level && (this.values.get(id) ?? 0) <= MAX_REUSED_VALUE && !chosen.includes(id),
      );
      if (candidates.length > 0) return this.rng.pick(candidates);
    }
    if (this.allowSharing && draw < REUSE_SHARE + SUBTREE_SHARE && level >= 2 && this.subtreeBudget > 0) {
      this.subtreeBudget--;
      return this.build(this.rng.int(1, Math.min(2, level - 1)), pool, false);
    }
    const id = this.leaf();
    pool.push(id);
    return id;
  }
}
