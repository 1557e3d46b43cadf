import { deriveSeed } from '../../../core/index.js';
import { famousEntities, renderRumours, type Rumour } from './famous-entities.js';
import { generateKnowledgeBase, type KnowledgeBase } from './knowledge-base.js';
import type { EntityType } from './relations.js';
import { renderCorpus, type KbCorpus } from './render-corpus.js';

/** The hidden state of a multihop family: its knowledge base and the corpus written from it. */
export interface MultihopWorld {
  kb: KnowledgeBase;
  corpus: KbCorpus;
  /** The entities a model knows without search (the most talked-about of each type). */
  famous: Readonly<Record<EntityType, ReadonlySet<number>>>;
  /** Rumours in the corpus, by `rumourKey(relation, subject)`. */
  rumours: ReadonlyMap<string, Rumour>;
}

/** Who counts as famous and how many of their facts have a rumour (families.multihop `famousTop`, `rumours`). */
export interface FameOptions {
  famousTop: number;
  rumours: number;
}

/** Builds the world of `createMultihopFamily(config, seed)`; tests walk its knowledge base to check answers. */
export function buildMultihopWorld(personCount: number, seed: number, fame: FameOptions = { famousTop: 0.1, rumours: 0 }): MultihopWorld {
  const kb = generateKnowledgeBase(personCount, deriveSeed(seed, 'multihop-kb'));
  const base = renderCorpus(kb, deriveSeed(seed, 'multihop-corpus'));
  const famous = famousEntities(kb, fame.famousTop);
  const rumoured = renderRumours(kb, famous, fame.rumours, deriveSeed(seed, 'multihop-rumours'));
  const corpus: KbCorpus = {
    documents: [...base.documents, ...rumoured.documents],
    factSentences: base.factSentences,
    mentions: new Map([...base.mentions, ...rumoured.mentions]),
  };
  return { kb, corpus, famous, rumours: rumoured.rumours };
}
