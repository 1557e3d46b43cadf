import { describe, expect, test } from 'vitest';
import type { SearchArtifacts } from '../core/artifacts.js';
import { createBm25Retriever } from './bm25-retriever.js';
import { evaluateSupportRecall } from './evaluate-support-recall.js';
import { corpusTitles, recallAtK, supportRecall } from './support-recall.js';

const corpus = [
  { id: '0', title: 'VIVA Media', text: 'VIVA Media AG is a music television network.' },
  { id: '1', title: 'GmbH', text: 'Gesellschaft mit beschränkter Haftung is a type of legal entity.' },
  { id: '2', title: 'Rome', text: 'Rome is the capital of Italy.' },
  { id: '3', title: 'Paris', text: 'Paris is the capital of France.' },
];
const task = { metadata: { supportingTitles: ['VIVA Media', 'GmbH'] } };
const search = (steps: SearchArtifacts['steps']): SearchArtifacts => ({ kind: 'search', steps, documentsFound: new Set(steps.flatMap((step) => step.docIds)).size });

describe('supportRecall', () => {
  test('maps retrieved ids to titles through the corpus, over all steps', () => {
    const artifacts = search([
      { query: 'VIVA Media', docIds: ['0', '2'] },
      { query: 'broken', docIds: [], error: 'timeout' },
      { query: 'GmbH', docIds: ['2', '1'] },
    ]);
    expect(supportRecall(artifacts, task, corpus)).toEqual({
      recall: 1,
      complete: true,
      supportingTitles: ['VIVA Media', 'GmbH'],
      found: ['VIVA Media', 'GmbH'],
      missing: [],
      documentsConsidered: 3,
    });
    // The first k distinct documents only, with a prebuilt title map.
    expect(supportRecall(artifacts, task, corpusTitles(corpus), { k: 2 })).toMatchObject({ recall: 0.5, complete: false, missing: ['GmbH'], documentsConsidered: 2 });
  });

  test('undefined without supports or for other blocks', () => {
    expect(supportRecall(search([]), { metadata: {} }, corpus)).toBeUndefined();
    expect(supportRecall({ kind: 'cot' }, task, corpus)).toBeUndefined();
    expect(supportRecall(search([]), task, corpus)).toMatchObject({ recall: 0, missing: ['VIVA Media', 'GmbH'] });
  });

  test('recallAtK', () => {
    expect(recallAtK(['A', 'X', 'B'], ['A', 'B'], 2)).toBe(0.5);
    expect(recallAtK(['A', 'X', 'B'], ['A', 'B'], 3)).toBe(1);
    expect(recallAtK([], ['A'], 5)).toBe(0);
  });

  test('evaluateSupportRecall queries with each question and averages', async () => {
    const tasks = [
      { id: 'a', suite: 'hotpotqa', question: 'What does the acronym of VIVA Media stand for, Gesellschaft?', metadata: { supportingTitles: ['VIVA Media', 'GmbH'] } },
      { id: 'b', suite: 'hotpotqa', question: 'capital of Italy', metadata: { supportingTitles: ['Rome', 'Paris'] } },
      { id: 'c', suite: 'hotpotqa', question: 'no supports', metadata: {} },
    ];
    const report = await evaluateSupportRecall(tasks, createBm25Retriever(corpus), [1, 4]);
    expect(report.tasks).toBe(2);
    expect(report.byK[1]).toEqual({ k: 4, meanRecall: 1, completeRate: 1 });
    expect(report.byK[0]).toEqual({ k: 1, meanRecall: 0.5, completeRate: 0 });
  });
});
