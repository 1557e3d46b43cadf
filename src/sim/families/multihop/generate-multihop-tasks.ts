import { fnv1a32, type Rng, type Task } from '../../../core/index.js';
import type { MultihopFamilyConfig } from '../../scenario/scenario-schema.js';
import type { GenerateOptions } from '../family.js';
import { followRelation, sameValue, valueName, type KbValue, type KnowledgeBase } from './knowledge-base.js';
import { renderQuestion } from './question-grammar.js';
import { relationsFrom, type EntityType, type RelationName } from './relations.js';

const ANCHOR_TYPES: readonly EntityType[] = ['person', 'company', 'city'];
/** Redraws allowed for a chain that revisits an entity (`the mentor of the mentor of X` = X). */
const MAX_CHAIN_DRAWS = 20;

/**
 * Draws `count` questions: per task a hop count from `config.hops`, an anchor entity, and a
 * random walk over relations whose types fit (terminal relations, year and country, only last).
 * Chains that revisit an entity are redrawn, so every hop asks something new.
 */
export function generateMultihopTasks(kb: KnowledgeBase, config: MultihopFamilyConfig, options: GenerateOptions): Task[] {
  const { count, rng, idPrefix } = options;
  const tasks: Task[] = [];
  for (let n = 0; n < count; n++) {
    const hops = rng.int(config.hops[0], config.hops[1]);
    const { anchor, chain, answer } = drawChain(kb, hops, rng);
    const anchorName = valueName(kb, anchor);
    const question = renderQuestion(anchorName, chain);
    tasks.push({
      id: `${idPrefix}-multihop-${n}-${fnv1a32(question).toString(16).padStart(8, '0').slice(0, 6)}`,
      suite: 'multihop',
      question,
      answer: valueName(kb, answer),
      metadata: { family: 'multihop', axes: { hops }, chain, anchor: anchorName },
    });
  }
  return tasks;
}

function drawChain(kb: KnowledgeBase, hops: number, rng: Rng): { anchor: KbValue; chain: RelationName[]; answer: KbValue } {
  let drawn: { anchor: KbValue; chain: RelationName[]; answer: KbValue } | undefined;
  for (let attempt = 0; attempt < MAX_CHAIN_DRAWS; attempt++) {
    const type = rng.pick(ANCHOR_TYPES);
    const anchor: KbValue = { type, index: rng.int(0, kb.names[type].length - 1) };
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
    drawn = { anchor, chain, answer: current };
    const revisits = visited.some((value, index) => visited.findIndex((other) => sameValue(other, value)) !== index);
    if (!revisits) break;
  }
  if (drawn === undefined) throw new RangeError(`cannot draw a chain of ${hops} hops`);
  return drawn;
}
