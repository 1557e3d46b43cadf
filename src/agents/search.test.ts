import { describe, expect, it } from 'vitest';
import { SearchArtifactsSchema } from '../core/artifacts.js';
import { UserError } from '../core/errors.js';
import type { Retriever } from '../core/retriever.js';
import { SearchParamsSchema } from '../plan/block-specs.js';
import { createBm25Retriever } from '../tasks/bm25-retriever.js';
import { createScriptedProvider } from '../testing/scripted-provider.js';
import { answerInDocuments, searchBlock } from './search.js';
import { createTestContext, lastUserMessage } from './test-fixtures/block-context.js';

const corpus = [
  { id: 'eiffel', title: 'Eiffel Tower', text: 'The Eiffel Tower is a wrought-iron tower in Paris, France, completed in 1889.' },
  { id: 'louvre', title: 'Louvre', text: 'The Louvre is an art museum in Paris.' },
  { id: 'gustave', title: 'Gustave Eiffel', text: 'Gustave Eiffel was a French engineer born in Dijon in 1832.' },
  { id: 'tokyo', title: 'Tokyo Tower', text: 'Tokyo Tower is a lattice tower in Tokyo, inspired by the Eiffel Tower.' },
];
const question = 'Where was the engineer of the Eiffel Tower born?';

describe('search block', () => {
  it('searches, feeds back numbered results, and answers', async () => {
    const provider = createScriptedProvider([
      'I need the engineer. <search>Eiffel Tower engineer</search>',
      '<search>Gustave Eiffel born</search>',
      'He was born in Dijon. <answer>Dijon</answer>',
    ]);
    const retriever = createBm25Retriever(corpus);
    const context = createTestContext({ provider, question, retriever, params: SearchParamsSchema.parse({ topK: 2, maxIterations: 4 }) });
    const result = await searchBlock.run(context);
    provider.assertAllUsed();

    expect(result.answer).toBe('Dijon');
    expect(result.artifacts).toMatchObject({ kind: 'search', steps: [{ query: 'Eiffel Tower engineer' }, { query: 'Gustave Eiffel born' }] });
    const { steps } = SearchArtifactsSchema.parse(result.artifacts);
    expect(steps.map((step) => step.docIds.length)).toEqual([2, 2]);
    expect(steps[1]?.docIds[0]).toBe('gustave');
    expect(steps.every((step) => step.error === undefined)).toBe(true);
    expect(result.artifacts).toMatchObject({ documentsFound: new Set(steps.flatMap((step) => step.docIds)).size });

    // One growing conversation: the model sees its own turns and each feedback message.
    const third = context.requests[2]?.messages ?? [];
    expect(third.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(third[1]?.content).toContain('Step: search\n\nSub-task:\nWhere was the engineer');
    expect(third[1]?.content).toContain('Iterations left: 4');
    const feedback = lastUserMessage(context.requests[2]);
    expect(feedback).toMatch(/^Step: search\n\nQuery: Gustave Eiffel born\n\nSearch results:\n\[1\] Gustave Eiffel \(id: gustave\)\nGustave Eiffel was a French engineer born in Dijon in 1832\.\n\[2\] /);
    expect(feedback).toContain('\n\nIterations left: 2\n\nInstructions:\n');
  });

  it('stops at maxIterations and forces an answer', async () => {
    const provider = createScriptedProvider(['<search>tower</search>', '<search>museum</search>', 'Best guess. <answer>Paris</answer>']);
    const context = createTestContext({ provider, question, retriever: createBm25Retriever(corpus), params: SearchParamsSchema.parse({ maxIterations: 2 }) });
    const result = await searchBlock.run(context);
    provider.assertAllUsed();
    expect(context.requests).toHaveLength(3);
    expect(result.answer).toBe('Paris');
    expect(result.artifacts).toMatchObject({ steps: [{ query: 'tower' }, { query: 'museum', docIds: ['louvre'] }] });
    const last = lastUserMessage(context.requests[2]);
    expect(last).toMatch(/^Step: search-final\n/);
    expect(last).toContain('Iterations left: 0');
    expect(last).toContain('No searches are left.');
  });

  it('records empty results, empty queries and replies with no tag', async () => {
    const provider = createScriptedProvider(['<search>quantum chromodynamics</search>', '<search> </search>', 'Thinking aloud.', '<answer>unknown</answer>']);
    const context = createTestContext({ provider, question, retriever: createBm25Retriever(corpus), params: SearchParamsSchema.parse({ maxIterations: 5 }) });
    const result = await searchBlock.run(context);
    provider.assertAllUsed();
    expect(result.artifacts).toEqual({
      kind: 'search',
      steps: [
        { query: 'quantum chromodynamics', docIds: [] },
        { query: '', docIds: [], error: 'empty query' },
      ],
      documentsFound: 0,
    });
    const prompts = context.requests.map(lastUserMessage);
    expect(prompts[1]).toContain('Search results:\n(no results)');
    expect(prompts[2]).toContain('Search results:\n(search failed: empty query)');
    expect(prompts[3]).not.toContain('Search results:');
    expect(prompts[3]).toContain('Your last reply had neither a <search> nor an <answer> tag.');
  });

  it('records a retriever error and carries on', async () => {
    const failing: Retriever = {
      name: 'flaky',
      async search() {
        throw new Error('index offline');
      },
    };
    const provider = createScriptedProvider(['<search>Eiffel</search>', '<answer>Dijon</answer>']);
    const context = createTestContext({ provider, question, retriever: failing, params: SearchParamsSchema.parse({}) });
    const result = await searchBlock.run(context);
    expect(result.artifacts).toEqual({ kind: 'search', steps: [{ query: 'Eiffel', docIds: [], error: 'index offline' }], documentsFound: 0 });
    expect(lastUserMessage(context.requests[1])).toContain('Search results:\n(search failed: index offline)');
  });

  it('takes an answer written before any search tag', async () => {
    const provider = createScriptedProvider(['<answer>Dijon</answer> (no need to <search>verify</search>)']);
    const context = createTestContext({ provider, question, retriever: createBm25Retriever(corpus), params: SearchParamsSchema.parse({}) });
    const result = await searchBlock.run(context);
    expect(result).toMatchObject({ answer: 'Dijon', artifacts: { steps: [] } });
  });

  it('fails clearly without a retriever', async () => {
    const provider = createScriptedProvider([]);
    const context = createTestContext({ provider, question, params: SearchParamsSchema.parse({}) });
    await expect(searchBlock.run(context)).rejects.toThrow(UserError);
    await expect(searchBlock.run(context)).rejects.toThrow(/node "n1" uses the search block but the run has no retriever/);
    provider.assertAllUsed();
  });
});

describe('answerInDocuments', () => {
  it('says whether the answer occurs as whole words in a retrieved document, case and spacing ignored', () => {
    const documents = ['Athens hosted the 1896 Summer Olympics.', 'The Acropolis of  Athens is on a hill.'];
    expect(answerInDocuments('athens', documents)).toBe(true);
    expect(answerInDocuments('The Acropolis of Athens', documents)).toBe(true);
    expect(answerInDocuments('1896', documents)).toBe(true);
    expect(answerInDocuments('Athen', documents)).toBe(false);
    expect(answerInDocuments('Rome', documents)).toBe(false);
  });

  it('cannot tell for uninformative answers or when nothing was retrieved', () => {
    expect(answerInDocuments('yes', ['yes, it did'])).toBeUndefined();
    expect(answerInDocuments('7', ['7 apples'])).toBeUndefined();
    expect(answerInDocuments('Athens', [])).toBeUndefined();
    expect(answerInDocuments('a+b (c)', ['so a+b (c) holds'])).toBe(true);
  });
});
