import { Rng } from '../../../core/index.js';
import { drawPopular, followRelation, valueName, type KbValue, type KnowledgeBase } from './knowledge-base.js';
import type { KbDocument } from './render-corpus.js';
import { fillTemplate, relationsFrom, type EntityType, type RelationName } from './relations.js';

const ENTITY_TYPES: readonly EntityType[] = ['person', 'company', 'city'];

/** The most talked-about `top` share of each entity type (at least one of each): the entities a model knows. */
export function famousEntities(kb: KnowledgeBase, top: number): Readonly<Record<EntityType, ReadonlySet<number>>> {
  const pick = (type: EntityType) => new Set(kb.byPopularity[type].slice(0, Math.max(1, Math.ceil(top * kb.byPopularity[type].length))));
  return { person: pick('person'), company: pick('company'), city: pick('city') };
}

export function isFamous(famous: Readonly<Record<EntityType, ReadonlySet<number>>>, value: KbValue | undefined): boolean {
  return value !== undefined && value.type !== 'year' && value.type !== 'country' && famous[value.type].has(value.index);
}

/** A rumour about one fact of a famous entity: the document that states it and the wrong value it gives. */
export interface Rumour {
  documentId: string;
  value: KbValue;
}

/** Key of a rumour: the relation and its subject. */
export function rumourKey(relation: RelationName, subject: KbValue): string {
  return `${relation}:${subject.type}:${subject.index}`;
}

const OPENINGS: readonly ((fact: string, name: string) => string)[] = [
  (fact, name) => `Gossip columns long claimed that ${fact.replace(/\.$/, '')}, a story ${name} never confirmed.`,
  (fact, name) => `A widely shared profile of ${name} states: "${fact}" Readers were quick to repeat it.`,
  (fact, name) => `According to an old tabloid piece on ${name}, ${fact.charAt(0).toLowerCase()}${fact.slice(1)}`,
];

/**
 * Rumour documents: for each famous entity and each of its facts, with probability `share`, a
 * gossip note that states the fact with a wrong value in the corpus's own words (another entity
 * of the right type, popular ones more often, or a year within 15 of the true one). Famous
 * entities attract such text; a search for the fact retrieves it beside, or instead of, the true
 * document. Drawn from their own seed after the rest of the corpus, so the other documents stay
 * as they were.
 */
export function renderRumours(
  kb: KnowledgeBase,
  famous: Readonly<Record<EntityType, ReadonlySet<number>>>,
  share: number,
  seed: number,
): { documents: KbDocument[]; rumours: Map<string, Rumour>; mentions: Map<string, KbValue[]> } {
  const rng = new Rng(seed);
  const documents: KbDocument[] = [];
  const rumours = new Map<string, Rumour>();
  const mentions = new Map<string, KbValue[]>();
  if (share <= 0) return { documents, rumours, mentions };
  for (const type of ENTITY_TYPES) {
    for (const index of [...famous[type]].sort((a, b) => a - b)) {
      const subject: KbValue = { type, index };
      for (const relation of relationsFrom(type)) {
        if (!rng.chance(share)) continue;
        const truth = followRelation(kb, relation.name, subject);
        if (truth === undefined) continue;
        const value = wrongValue(kb, truth, rng);
        const name = valueName(kb, subject);
        const fact = fillTemplate(rng.pick(relation.facts), name, valueName(kb, value));
        const documentId = `kb-rumour-${documents.length}`;
        documents.push({ id: documentId, title: `Rumours about ${name}`, text: rng.pick(OPENINGS)(fact, name) });
        rumours.set(rumourKey(relation.name, subject), { documentId, value });
        mentions.set(documentId, [subject, value]);
      }
    }
  }
  return { documents, rumours, mentions };
}

function wrongValue(kb: KnowledgeBase, truth: KbValue, rng: Rng): KbValue {
  if (truth.type === 'year') return { type: 'year', index: truth.index + (rng.chance(0.5) ? 1 : -1) * rng.int(1, 15) };
  const size = truth.type === 'country' ? kb.countries.length : kb.names[truth.type].length;
  for (let attempt = 0; attempt < 8; attempt++) {
    const index = truth.type === 'country' ? rng.int(0, size - 1) : drawPopular(kb.byPopularity[truth.type], rng);
    if (index !== truth.index) return { type: truth.type, index };
  }
  return { type: truth.type, index: (truth.index + 1) % size };
}
