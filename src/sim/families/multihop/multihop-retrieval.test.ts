import { describe, expect, test } from 'vitest';
import { Rng } from '../../../core/rng.js';
import { createBm25Retriever } from '../../../tasks/index.js';
import { MultihopFamilySchema } from '../../scenario/scenario-schema.js';
import type { PromptView } from '../family.js';
import { createMultihopFamily } from './create-multihop-family.js';
import { lookupEntity } from './knowledge-base.js';
import { buildMultihopWorld } from './multihop-world.js';
import { entityDocumentId } from './render-corpus.js';

const TOP_K = 5;

/**
 * Runs every hop query a model would write (`nextQuery()`), hop after hop, through real BM25 over
 * the family's corpus, and counts how often the document the hop needs is in the top 5. After
 * each query the needed document is put in view, as a later successful search would, so every
 * hop of every chain is measured once.
 */
async function hopRecall(seed: number): Promise<{ recall: number; queries: number }> {
  const config = MultihopFamilySchema.parse({ hops: [1, 4], entities: 300 });
  const family = createMultihopFamily(config, seed);
  const { kb } = buildMultihopWorld(config.entities, seed);
  const documents = family.corpus();
  const byId = new Map(documents.map((document) => [document.id, document]));
  const retriever = createBm25Retriever(documents);
  let hits = 0;
  let queries = 0;
  for (const task of family.generate({ count: 150, rng: new Rng(seed + 1), idPrefix: 'retrieval' })) {
    const view: PromptView & { documents: PromptView['documents'][number][] } = { subTask: task.question, originalQuestion: task.question, documents: [] };
    for (let problem = family.read(view); problem?.nextQuery() !== undefined; problem = family.read(view)) {
      const hop = problem.steps.findIndex((step) => step.evidence === 'absent');
      // Keys are `hop:relation:subject`; the subject's own document states the fact.
      const subject = lookupEntity(kb, problem.steps[hop]?.key.split(':').slice(2).join(':') ?? '');
      const neededId = subject === undefined ? undefined : entityDocumentId(subject);
      expect(neededId).toBeDefined();
      const results = await retriever.search(problem.nextQuery() as string, { topK: TOP_K });
      if (results.some((result) => result.id === neededId)) hits++;
      queries++;
      view.documents.push(byId.get(neededId as string) as PromptView['documents'][number]);
    }
  }
  return { recall: hits / queries, queries };
}

describe('multihop retrieval with real BM25', () => {
  test('hop queries find the needed document in the top 5 often, but not always', async () => {
    const figures = await Promise.all([7, 11, 23].map(hopRecall));
    const mean = figures.reduce((sum, figure) => sum + figure.recall, 0) / figures.length;
    console.info(`multihop BM25 hop recall@${TOP_K}: ${figures.map((figure) => `${figure.recall.toFixed(3)} (${figure.queries} queries)`).join(', ')}; mean ${mean.toFixed(3)}`);
    for (const figure of figures) expect(figure.recall).toBeGreaterThan(0.85);
    expect(mean).toBeLessThan(0.995);
  });
});
