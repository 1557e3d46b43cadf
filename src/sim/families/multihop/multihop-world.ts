import { deriveSeed } from '../../../core/index.js';
import { generateKnowledgeBase, type KnowledgeBase } from './knowledge-base.js';
import { renderCorpus, type KbCorpus } from './render-corpus.js';

/** The hidden state of a multihop family: its knowledge base and the corpus written from it. */
export interface MultihopWorld {
  kb: KnowledgeBase;
  corpus: KbCorpus;
}

/** Builds the world of `createMultihopFamily(config, seed)`; tests walk its knowledge base to check answers. */
export function buildMultihopWorld(personCount: number, seed: number): MultihopWorld {
  const kb = generateKnowledgeBase(personCount, deriveSeed(seed, 'multihop-kb'));
  return { kb, corpus: renderCorpus(kb, deriveSeed(seed, 'multihop-corpus')) };
}
