import { type Rng, SystemError } from '../../../core/index.js';
import type { ArithGraph } from './arith-graph.js';
import { MAX_VALUE } from './arith-graph.js';
import { GraphBuilder } from './graph-builder.js';

/** The difficulty axes of one arith task. */
export interface ArithAxes {
  /** Longest chain of relations from a given value to the main target. */
  depth: number;
  /** Fan-in of relations inside a component (the largest is exactly this). */
  breadth: number;
  /** Independent components the main target combines (1 = a single component). */
  parallel: number;
  /** Quantities asked for, in order. */
  horizon: number;
  /** Statements (given values or relations) no asked quantity needs. */
  distractors: number;
  /** Planted misleading notes about quantities on the answer's path. */
  misleading: number;
}

/** A generated task structure; `axes` are as realised (see {@link generateArithGraph}). */
export interface GeneratedArith {
  graph: ArithGraph;
  values: Map<string, number>;
  /** Every quantity some target needs (targets included), in a topological order. */
  needed: string[];
  /** Needed quantities per independent component of the main target (the combining target excluded). */
  components: string[][];
  axes: ArithAxes;
}

const ATTEMPTS = 8;
/** Chance that a distractor is a new given value rather than a relation over existing quantities. */
const DISTRACTOR_LEAF_SHARE = 0.35;
/** Chance that a distractor relation builds on a needed quantity (so a careless reader may follow it). */
const DISTRACTOR_ON_PATH_SHARE = 0.5;

interface Built {
  builder: GraphBuilder;
  target: string;
  components: string[][];
  nonLeaf: number;
}

function buildMain(rng: Rng, axes: ArithAxes, parallel: number, allowSharing: boolean): Built | undefined {
  const builder = new GraphBuilder(rng, axes.breadth, allowSharing);
  const components: string[][] = [];
  let target: string | undefined;
  if (parallel === 1) {
    const pool: string[] = [];
    target = builder.build(axes.depth, pool, true);
    components.push(pool.filter((id) => id !== target));
  } else {
    const tops: string[] = [];
    for (let index = 0; index < parallel; index++) {
      const pool: string[] = [];
      const top = builder.build(axes.depth - 1, pool, true);
      if (top === undefined) return undefined;
      tops.push(top);
      components.push(pool);
    }
    target = builder.relate(tops);
  }
  if (target === undefined) return undefined;
  let nonLeaf = 0;
  for (const definition of builder.definitions.values()) if (definition.kind !== 'given') nonLeaf++;
  return { builder, target, components, nonLeaf };
}

/** A wrong value near `value`: what a planted note claims. */
function nearbyWrongValue(rng: Rng, value: number): number {
  const delta = rng.int(1, Math.max(3, Math.round(value * 0.2)));
  const below = value - delta;
  return below >= 1 && (rng.chance(0.5) || value + delta > MAX_VALUE) ? below : value + delta;
}

/**
 * Generates a task structure for the drawn axes. Depth, breadth and distractors are realised
 * exactly. Parallel needs depth >= 2 (each component is a chain one shorter than the target) and
 * is 1 otherwise; horizon and misleading are capped by the number of relations on the answer's
 * path (a depth-2 chain has only two quantities to ask for). Relations that would leave
 * [1, 9999] are never drawn; a structure that cannot be completed is redrawn, and the last
 * attempt, without reuse and side sub-trees, always completes.
 */
export function generateArithGraph(rng: Rng, drawn: ArithAxes): GeneratedArith {
  const parallel = drawn.depth >= 2 ? drawn.parallel : 1;
  let best: Built | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const built = buildMain(rng.fork(`attempt:${attempt}`), drawn, parallel, attempt < ATTEMPTS - 1);
    if (built !== undefined && (best === undefined || built.nonLeaf > best.nonLeaf)) best = built;
    if (best !== undefined && best.nonLeaf >= drawn.horizon) break;
  }
  if (best === undefined) throw new SystemError(`arith generator could not build a task for axes ${JSON.stringify(drawn)}`);
  const { builder, target, components } = best;
  const needed = [...builder.definitions.keys()];
  const onPath = needed.filter((id) => builder.definitions.get(id)?.kind !== 'given');

  const targetRng = rng.fork('targets');
  const horizon = Math.min(drawn.horizon, onPath.length);
  const chosen = new Set(targetRng.shuffle(onPath.filter((id) => id !== target)).slice(0, horizon - 1));
  const targets = [...onPath.filter((id) => chosen.has(id)), target];

  const noteRng = rng.fork('notes');
  const notes = new Map<string, number>();
  for (const id of noteRng.shuffle(onPath).slice(0, drawn.misleading)) {
    notes.set(id, nearbyWrongValue(noteRng, builder.values.get(id) ?? 0));
  }

  const distractorRng = rng.fork('distractors');
  for (let index = 0; index < drawn.distractors; index++) {
    const existing = [...builder.definitions.keys()];
    if (distractorRng.chance(DISTRACTOR_LEAF_SHARE)) {
      builder.leaf();
      continue;
    }
    const fanIn = distractorRng.int(1, Math.min(drawn.breadth, 3, existing.length));
    const first = distractorRng.chance(DISTRACTOR_ON_PATH_SHARE) ? distractorRng.pick(needed) : distractorRng.pick(existing);
    const others = distractorRng.shuffle(existing.filter((id) => id !== first)).slice(0, fanIn - 1);
    // One parent always fits, so every distractor becomes a statement.
    if (builder.relate([first, ...others]) === undefined) builder.relate([first]);
  }

  return {
    graph: { definitions: builder.definitions, notes, targets },
    values: builder.values,
    needed,
    components,
    axes: { ...drawn, parallel, horizon, misleading: notes.size },
  };
}
