import { describe, expect, it } from 'vitest';
import { UserError } from '../core/errors.js';
import { createBm25Retriever } from './bm25-retriever.js';

const documents = [
  { id: 'd3', title: 'Cats', text: 'Cats are small carnivorous mammals kept as pets.' },
  { id: 'd1', title: 'Dogs', text: 'Dogs are domesticated descendants of wolves.' },
  { id: 'd2', title: 'Wolves', text: 'Wolves live and hunt in packs; wolves howl.' },
  { id: 'b', title: 'Twin', text: 'identical twin passage' },
  { id: 'a', title: 'Twin', text: 'identical twin passage' },
];

describe('createBm25Retriever', () => {
  it('ranks by BM25 over title and text and returns stored fields', async () => {
    const retriever = createBm25Retriever(documents);
    expect(retriever.name).toBe('bm25');
    const results = await retriever.search('wolves', { topK: 5 });
    expect(results.map((result) => result.id)).toEqual(['d2', 'd1']);
    expect(results[0]).toMatchObject({ title: 'Wolves', text: 'Wolves live and hunt in packs; wolves howl.' });
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
  });

  it('honours topK', async () => {
    const retriever = createBm25Retriever(documents);
    expect(await retriever.search('cats dogs wolves twin', { topK: 2 })).toHaveLength(2);
    await expect(retriever.search('cats', { topK: 0 })).rejects.toThrow(UserError);
  });

  it('orders equal scores by id whatever the insertion order', async () => {
    const forward = await createBm25Retriever(documents).search('twin passage', { topK: 5 });
    const reversed = await createBm25Retriever([...documents].reverse()).search('twin passage', { topK: 5 });
    expect(forward.map((result) => result.id)).toEqual(['a', 'b']);
    expect(reversed.map((result) => result.id)).toEqual(['a', 'b']);
  });

  it('returns nothing for unmatched or empty queries', async () => {
    const retriever = createBm25Retriever(documents);
    expect(await retriever.search('photosynthesis', { topK: 5 })).toEqual([]);
    expect(await retriever.search('  ', { topK: 5 })).toEqual([]);
  });

  it('rejects duplicate ids and honours an aborted signal', async () => {
    expect(() => createBm25Retriever([documents[0]!, documents[0]!])).toThrow(/document ids must be unique/);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(createBm25Retriever(documents).search('cats', { topK: 1, signal: controller.signal })).rejects.toThrow('stop');
  });

  it('answers a repeated query as the first time, with documents a caller may change freely', async () => {
    const retriever = createBm25Retriever(documents);
    const first = await retriever.search('wolves packs', { topK: 2 });
    const expected = structuredClone(first);
    first[0]!.text = 'changed by the caller';
    first.pop();
    expect(await retriever.search('wolves packs', { topK: 2 })).toEqual(expected);
    // Another topK of the same query is its own ranking, not a cut of a cached one.
    expect((await retriever.search('wolves packs', { topK: 1 })).map((result) => result.id)).toEqual([expected[0]!.id]);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(retriever.search('wolves packs', { topK: 2, signal: controller.signal })).rejects.toThrow('stop');
  });
});
