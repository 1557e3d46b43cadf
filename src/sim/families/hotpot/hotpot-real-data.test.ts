import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { Rng } from '../../../core/rng.js';
import { createBm25Retriever } from '../../../tasks/index.js';
import type { PromptView, SimFamily } from '../family.js';
import { DEFAULT_HOTPOT_PATH, loadHotpotFamily } from './load-hotpot-family.js';

// The one place tests read ../shared/data: the hotpot family exists to run on the real HotpotQA sample.
const path = resolve(process.cwd(), DEFAULT_HOTPOT_PATH);
const present = existsSync(path);
if (!present) console.info(`hotpot real-data tests skipped: ${path} is absent (the shared HotpotQA sample is not on this machine)`);

describe.skipIf(!present)('hotpot family on the real HotpotQA sample', () => {
  let family: SimFamily;
  beforeAll(async () => {
    const loaded = await loadHotpotFamily({ weight: 1 });
    if ('available' in loaded) throw new Error(loaded.reason);
    family = loaded;
  });

  test('every question is read; with its supporting paragraphs shown, all steps have evidence and all-ok gives gold', () => {
    const tasks = family.generate({ count: 200, rng: new Rng(1), idPrefix: 'real' });
    expect(new Set(tasks.map((task) => task.question)).size).toBe(200);
    const corpus = new Map(family.corpus().map((document) => [document.title, document]));
    for (const task of tasks) {
      const titles = task.metadata.supportingTitles as string[];
      const documents = titles.map((title) => corpus.get(title) as PromptView['documents'][number]);
      expect(documents.every((document) => document !== undefined)).toBe(true);
      const problem = family.read({ subTask: task.question, originalQuestion: task.question, documents });
      expect(problem?.steps.map((step) => step.evidence)).toEqual(titles.map(() => 'in_context'));
      expect(problem?.solve(() => ({ ok: true })).answer).toBe(task.answer);
      expect(problem?.solve(() => ({ ok: false, wrongSeed: 3, planted: false })).answer).not.toBe(task.answer);
      expect(family.decompose(task.question, 'whole')?.subQuestions).toHaveLength(1);
    }
  });

  test('three searches of the queries a model would write, through real BM25, often but not always find both paragraphs', async () => {
    const retriever = createBm25Retriever(family.corpus());
    const tasks = family.generate({ count: 200, rng: new Rng(1), idPrefix: 'real' });
    let complete = 0;
    for (const task of tasks) {
      const documents: PromptView['documents'][number][] = [];
      const view = { subTask: task.question, originalQuestion: task.question, documents };
      for (let search = 0; search < 3; search++) {
        const query = family.read(view)?.nextQuery();
        if (query === undefined) break;
        for (const result of await retriever.search(query, { topK: 5 })) if (!documents.some((document) => document.id === result.id)) documents.push(result);
      }
      if (family.read(view)?.steps.every((step) => step.evidence === 'in_context')) complete++;
    }
    console.info(`hotpot: both supporting paragraphs retrieved within 3 searches of top 5 for ${complete} of ${tasks.length} questions`);
    expect(complete / tasks.length).toBeGreaterThan(0.6);
    expect(complete).toBeLessThan(tasks.length);
  });
});
