import { fnv1a32, type Rng, type Task } from '../../../core/index.js';
import type { MultihopFamilyConfig } from '../../scenario/scenario-schema.js';
import type { GenerateOptions } from '../family.js';
import { isFamous } from './famous-entities.js';
import { followRelation, sameValue, valueName, type KbValue, type KnowledgeBase } from './knowledge-base.js';
import { renderQuestion } from './question-grammar.js';
import { relationsFrom, type EntityType, type RelationName } from './relations.js';

const ANCHOR_TYPES: readonly EntityType[] = ['person', 'company', 'city'];
/** Redraws allowed for a chain that revisits an entity (`the mentor of the mentor of X` = X). */
const MAX_CHAIN_DRAWS = 20;
/** Redraws allowed for a famous question whose every subject must be famous; then the hop count is lowered. */
const MAX_FAMOUS_DRAWS = 200;

/**
 * A question's structure as its text shows it (docs/sim.md §4.7): `famous` when every entity it
 * goes through is famous (recalled without search), else `chain`.
 */
export type MultihopStructure = 'famous' | 'chain';

/**
 * Draws `count` questions: per task a hop count from `config.hops`, an anchor entity, and a
 * random walk over relations whose types fit (terminal relations, year and country, only last).
 * Chains that revisit an entity are redrawn, so every hop asks something new. A share
 * `config.famousShare` of questions (a coin from a stream of their own) is redrawn, from another
 * stream, until every subject on the chain is famous, so the other questions are those the
 * generator drew before famous questions existed.
 */
export function generateMultihopTasks(
  kb: KnowledgeBase,
  config: MultihopFamilyConfig,
  options: GenerateOptions,
  famous: Readonly<Record<EntityType, ReadonlySet<number>>>,
): Task[] {
  const { count, rng, idPrefix } = options;
  const famousRng = rng.fork('famous');
  const tasks: Task[] = [];
  for (let n = 0; n < count; n++) {
    const hops = rng.int(config.hops[0], config.hops[1]);
    let drawn = drawChain(kb, hops, rng);
    let structure: MultihopStructure = 'chain';
    if (config.famousShare > 0 && famousRng.chance(config.famousShare)) {
      drawn = drawFamousChain(kb, hops, famousRng, famous);
      structure = 'famous';
    }
    const { anchor, chain, answer } = drawn;
    const anchorName = valueName(kb, anchor);
    const question = renderQuestion(anchorName, chain);
    tasks.push({
      id: `${idPrefix}-multihop-${n}-${fnv1a32(question).toString(16).padStart(8, '0').slice(0, 6)}`,
      suite: 'multihop',
      question,
      answer: valueName(kb, answer),
      metadata: { family: 'multihop', axes: { hops: chain.length, structure }, chain, anchor: anchorName },
    });
  }
  return tasks;
}

interface DrawnChain {
  anchor: KbValue;
  chain: RelationName[];
  answer: KbValue;
  /** The anchor, then every value the chain reaches. */
  visited: KbValue[];
}

/**
 * A chain whose every subject (anchor and inner values) is famous: anchors are drawn among the
 * famous, and walks are redrawn until they stay among them; a hop count that allows none after
 * MAX_FAMOUS_DRAWS is lowered by one.
 */
function drawFamousChain(kb: KnowledgeBase, hops: number, rng: Rng, famous: Readonly<Record<EntityType, ReadonlySet<number>>>): DrawnChain {
  for (let length = hops; length > 1; length--) {
    for (let attempt = 0; attempt < MAX_FAMOUS_DRAWS; attempt++) {
      const drawn = drawChain(kb, length, rng, (type) => rng.pick([...famous[type]]));
      if (drawn.visited.slice(0, -1).every((value) => isFamous(famous, value))) return drawn;
    }
  }
  return drawChain(kb, 1, rng, (type) => rng.pick([...famous[type]]));
}

function drawChain(kb: KnowledgeBase, hops: number, rng: Rng, pickAnchor?: (type: EntityType) => number): DrawnChain {
  let drawn: DrawnChain | undefined;
  for (let attempt = 0; attempt < MAX_CHAIN_DRAWS; attempt++) {
    const type = rng.pick(ANCHOR_TYPES);
    const anchor: KbValue = { type, index: pickAnchor === undefined ? rng.int(0, kb.names[type].length - 1) : pickAnchor(type) };
    const visited: KbValue[] = [anchor];
    const chain: RelationName[] = [];
    let current = anchor;
    for (let hop = 0; hop < hops; hop++) {
      const options = relationsFrom(current.type).filter((relation) => hop === hops - 1 || !relation.terminal);
      const relation = rng.pick(options).name;
      const next = followRelation(kb, relation, current);
      if (next === undefined) throw new RangeError(`knowledge base has no ${relation} for ${valueName(kb, current)}`);
      chain.push(relation);
      visited.push(next);
      current = next;
    }
    drawn = { anchor, chain, answer: current, visited };
    const revisits = visited.some((value, index) => visited.findIndex((other) => sameValue(other, value)) !== index);
    if (!revisits) break;
  }
  if (drawn === undefined) throw new RangeError(`cannot draw a chain of ${hops} hops`);
  return drawn;
}
