import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { InvalidInputError } from '../../../core/errors.js';
import { Rng } from '../../../core/rng.js';
import type { PromptView, SimFamily, StepOutcome } from '../family.js';
import { defaultCorpusPath, loadHotpotFamily } from './load-hotpot-family.js';

// A small file in the official distractor format, written for these tests (not the shared data).
const RECORDS = [
  {
    _id: 'bridge-1',
    question: 'In which city was the architect of the Glass Pavilion born?',
    answer: 'Lindau',
    type: 'bridge',
    level: 'hard',
    supporting_facts: [['Glass Pavilion', 0], ['Mara Quentel', 1], ['Glass Pavilion', 1]],
    context: [['Glass Pavilion', ['The Glass Pavilion is a hall in Bremen.', ' It was designed by Mara Quentel.']]],
  },
  {
    _id: 42,
    question: 'Are Rivertown Harriers and Oxbow United both football clubs?',
    answer: 'yes',
    type: 'comparison',
    level: 'medium',
    supporting_facts: [['Rivertown Harriers', 0], ['Oxbow United', 0]],
    context: [],
  },
  {
    _id: 'bridge-3',
    question: 'How many schools does the university where Pim Oster teaches have?',
    answer: 'six',
    type: 'bridge',
    level: 'easy',
    supporting_facts: [['Pim Oster', 0], ['University of Castrum (Aldmark)', 0]],
    context: [],
  },
  {
    _id: 'bridge-4',
    question: 'What instrument did the composer of Night Tide play?',
    answer: 'cello',
    type: 'bridge',
    level: 'hard',
    supporting_facts: [['Night Tide', 0], ['Ilse Varga', 0]],
    context: [],
  },
];
const DOCUMENTS = [
  { id: 'Glass Pavilion', title: 'Glass Pavilion', text: 'The Glass Pavilion is a hall in Bremen. It was designed by Mara Quentel.' },
  { id: 'Mara Quentel', title: 'Mara Quentel', text: 'Mara Quentel is an architect. She was born in Lindau and trained in Vienna under Otto Brandl.' },
  { id: 'Rivertown Harriers', title: 'Rivertown Harriers', text: 'Rivertown Harriers is a football club founded in 1899.' },
  { id: 'Oxbow United', title: 'Oxbow United', text: 'Oxbow United is a football club from Oxbow.' },
  { id: 'Pim Oster', title: 'Pim Oster', text: 'Pim Oster teaches history at the University of Castrum.' },
  { id: 'University of Castrum (Aldmark)', title: 'University of Castrum (Aldmark)', text: 'The University of Castrum has six schools.' },
  { id: 'Night Tide', title: 'Night Tide', text: 'Night Tide is a 1961 song whose composer never gave interviews.' },
  { id: 'Ilse Varga', title: 'Ilse Varga', text: 'Ilse Varga was a cellist and composer.' },
  { id: 'Bremen Hall', title: 'Bremen Hall', text: 'Bremen Hall is a concert venue in Bremen, opened by Karl Weiss in 1921.' },
];

let directory: string;
let family: SimFamily;

function jsonl(rows: readonly object[]): string {
  return `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
}

function view(subTask: string, documents: PromptView['documents'] = [], originalQuestion = subTask): PromptView {
  return { subTask, originalQuestion, documents };
}

function docs(...titles: string[]): PromptView['documents'] {
  return titles.map((title) => DOCUMENTS.find((document) => document.title === title) as PromptView['documents'][number]);
}

const question = (index: number) => RECORDS[index]?.question as string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-hotpot-'));
  writeFileSync(join(directory, 'sample.jsonl'), jsonl(RECORDS));
  writeFileSync(join(directory, 'sample-corpus.jsonl'), jsonl(DOCUMENTS));
  const loaded = await loadHotpotFamily({ weight: 1, path: join(directory, 'sample.jsonl') });
  if ('available' in loaded) throw new Error(loaded.reason);
  family = loaded;
});

describe('loadHotpotFamily', () => {
  test('reports itself unavailable, naming the path, when the question file or its corpus is missing', async () => {
    const missing = join(directory, 'absent.jsonl');
    expect(await loadHotpotFamily({ weight: 1, path: missing })).toEqual({ available: false, reason: expect.stringContaining(missing) });
    writeFileSync(join(directory, 'lonely.jsonl'), jsonl(RECORDS));
    const result = await loadHotpotFamily({ weight: 1, path: join(directory, 'lonely.jsonl') });
    expect(result).toEqual({ available: false, reason: expect.stringContaining(join(directory, 'lonely-corpus.jsonl')) });
    expect(defaultCorpusPath('/data/hotpot.jsonl')).toBe('/data/hotpot-corpus.jsonl');
  });

  test('rejects a malformed file with the bad line numbers', async () => {
    writeFileSync(join(directory, 'bad.jsonl'), `${JSON.stringify(RECORDS[0])}\n{"question": 3}\nnot json\n`);
    const error = await loadHotpotFamily({ weight: 1, path: join(directory, 'bad.jsonl'), corpusPath: join(directory, 'sample-corpus.jsonl') }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).issues.map((issue) => issue.path)).toEqual(expect.arrayContaining(['line 2: _id', 'line 3']));
  });

  test('tasks are the real questions with gold answers, in a seeded order, cycled past the end', () => {
    const tasks = family.generate({ count: 5, rng: new Rng(2), idPrefix: 'test' });
    expect(tasks.map((task) => task.id)).toEqual(tasks.map((_, n) => expect.stringMatching(new RegExp(`^test-hotpot-${n}-[0-9a-f]{6}$`))));
    expect(new Set(tasks.slice(0, 4).map((task) => task.question))).toEqual(new Set(RECORDS.map((record) => record.question)));
    expect(tasks[4]?.question).toBe(tasks[0]?.question);
    const comparison = tasks.find((task) => task.answer === 'yes');
    expect(comparison?.metadata).toEqual({
      family: 'hotpot',
      axes: { type: 'comparison', level: 'medium' },
      type: 'comparison',
      level: 'medium',
      supportingTitles: ['Rivertown Harriers', 'Oxbow United'],
      hotpotId: '42',
    });
    expect(family.generate({ count: 5, rng: new Rng(2), idPrefix: 'test' })).toEqual(tasks);
    expect(family.corpus()).toHaveLength(DOCUMENTS.length);
  });
});

describe('hotpot reader', () => {
  test('one read step per supporting title, in context exactly when its paragraph is shown', () => {
    const bare = family.read(view(question(0)));
    expect(bare).toMatchObject({ family: 'hotpot', taskKey: 'hotpot:bridge-1', recognised: true, correctAnswer: 'Lindau', distractorCount: 0 });
    expect(bare?.steps).toEqual([
      { key: 'read:Glass Pavilion', kind: 'read', difficulty: 1, evidence: 'absent', misled: false },
      { key: 'read:Mara Quentel', kind: 'read', difficulty: 1, evidence: 'absent', misled: false },
    ]);
    const partial = family.read(view(question(0), docs('Bremen Hall', 'Glass Pavilion')));
    expect(partial?.steps.map((step) => step.evidence)).toEqual(['in_context', 'absent']);
    expect(partial?.distractorCount).toBe(1);
    expect(family.read(view('What is 2 + 2?'))).toBeUndefined();
    expect(family.read(view('Who designed the Glass Pavilion?', [], question(0)))).toMatchObject({ recognised: false, correctAnswer: 'Lindau' });
  });

  test('all steps right gives the gold answer; a failure gives a plausible, seeded wrong answer', () => {
    const shown = docs('Glass Pavilion', 'Mara Quentel', 'Bremen Hall');
    const problem = family.read(view(question(0), shown));
    const right = problem?.solve(() => ({ ok: true }));
    expect(right?.answer).toBe('Lindau');
    expect(right?.reasoning[1]).toMatch(/^According to Mara Quentel: Mara Quentel is an architect/);
    const wrongAnswers = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const outcome = (_step: unknown, index: number): StepOutcome => (index === 1 ? { ok: false, wrongSeed: seed, planted: false } : { ok: true });
      const wrong = problem?.solve(outcome);
      expect(wrong?.answer).not.toBe('Lindau');
      expect(wrong).toEqual(problem?.solve(outcome));
      wrongAnswers.add(wrong?.answer as string);
    }
    // Entity-like spans of what was read or asked, never the gold answer.
    expect([...wrongAnswers].every((answer) => `${shown.map((document) => `${document.title} ${document.text}`).join(' ')} ${question(0)}`.includes(answer))).toBe(true);
    expect(wrongAnswers.size).toBeGreaterThan(3);

    const fail = (): StepOutcome => ({ ok: false, wrongSeed: 9, planted: false });
    expect(family.read(view(question(1)))?.solve(fail).answer).toBe('no');
    expect(['three', 'four', 'five', 'seven', 'eight', 'nine']).toContain(family.read(view(question(2)))?.solve(fail).answer);
  });

  test('queries: the question first, then the missing paragraph when the text read names it, else the question', () => {
    expect(family.read(view(question(0)))?.nextQuery()).toBe(question(0));
    expect(family.read(view(question(0), docs('Glass Pavilion')))?.nextQuery()).toBe('Mara Quentel');
    // The question names the other paragraph's subject, as comparison questions do.
    expect(family.read(view(question(0), docs('Mara Quentel')))?.nextQuery()).toBe('Glass Pavilion');
    expect(family.read(view(question(3), docs('Night Tide')))?.nextQuery()).toBe(question(3));
    // The disambiguation part of a title is not something a model would search for.
    expect(family.read(view(question(2), docs('Pim Oster')))?.nextQuery()).toBe('University of Castrum');
    expect(family.read(view(question(0), docs('Glass Pavilion', 'Mara Quentel')))?.nextQuery()).toBeUndefined();
  });

  test('decomposes only into the whole question', () => {
    expect(family.decompose(question(0), 'whole')?.subQuestions.map((subQuestion) => subQuestion.render({}))).toEqual([question(0)]);
    expect(family.decompose(question(0), 'steps')).toBeUndefined();
    expect(family.decompose(question(0), 'components')).toBeUndefined();
    expect(family.decompose('Who wrote Hamlet?', 'whole')).toBeUndefined();
  });
});
