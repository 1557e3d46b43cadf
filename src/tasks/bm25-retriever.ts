import { LRUCache } from 'lru-cache';
import MiniSearch from 'minisearch';
import { type RetrievedDocument, type Retriever, UserError } from '../core/index.js';
import type { CorpusDocument } from './corpus.js';

/** Rankings kept per retriever (query and topK); a ranking holds topK documents, so memory is bounded by this times topK. */
const SEARCH_CACHE_ENTRIES = 4096;

export interface Bm25RetrieverOptions {
  /** Reported as `Retriever.name` and recorded in runs. @default 'bm25' */
  name?: string;
  /** Weight of title matches relative to text matches. @default 1 */
  titleBoost?: number;
}

interface StoredFields {
  title: string;
  text: string;
}

/**
 * Ranks documents by BM25 over their title and text, with `minisearch` and its BM25+ defaults
 * (k1 1.2, b 0.7, delta 0.5). A query matches documents sharing any of its terms. Equal scores
 * are ordered by id, so results never depend on insertion order or engine internals.
 *
 * @example
 * const retriever = createBm25Retriever([{ id: 'd1', title: 'Paris', text: 'Capital of France.' }]);
 * await retriever.search('capital of France', { topK: 5 }); // [{ id: 'd1', score: ..., ... }]
 */
export function createBm25Retriever(documents: readonly CorpusDocument[], options: Bm25RetrieverOptions = {}): Retriever {
  const { name = 'bm25', titleBoost = 1 } = options;
  const index = new MiniSearch<CorpusDocument>({ fields: ['title', 'text'], storeFields: ['title', 'text'], idField: 'id' });
  try {
    index.addAll(documents);
  } catch (error) {
    throw new UserError(`cannot index corpus for retriever "${name}": ${(error as Error).message}; document ids must be unique`, { cause: error });
  }
  // The ranking is a pure function of the query and topK over a fixed index, and agents ask the same
  // queries again and again (every plan of a task, every strategy of Best-of-N): BM25 over the whole
  // index was a tenth of the demo's CPU time. Bounded by entries; callers get fresh objects.
  const ranked = new LRUCache<string, readonly RetrievedDocument[]>({ max: SEARCH_CACHE_ENTRIES });
  return {
    name,
    async search(query, { topK, signal }) {
      signal?.throwIfAborted();
      if (!Number.isInteger(topK) || topK < 1) throw new UserError(`topK must be a positive integer, got ${topK}`);
      const key = `${topK}\u0000${query}`;
      let documents = ranked.get(key);
      if (documents === undefined) {
        const results = index.search(query, { boost: { title: titleBoost } });
        results.sort((a, b) => b.score - a.score || compareIds(String(a.id), String(b.id)));
        documents = results.slice(0, topK).map((result): RetrievedDocument => {
          const stored = result as unknown as StoredFields;
          return { id: String(result.id), title: stored.title, text: stored.text, score: result.score };
        });
        ranked.set(key, documents);
      }
      return documents.map((document) => ({ ...document }));
    },
  };
}

// Code-unit order, not localeCompare, so ordering is the same under every locale.
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
