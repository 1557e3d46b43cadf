import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { InvalidInputError, UserError } from '../core/errors.js';
import { TaskSchema } from '../core/task.js';
import { detectSuite, loadSuite } from './load-suite.js';

const directory = mkdtempSync(join(tmpdir(), 'orchrm-suites-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function file(name: string, records: readonly unknown[] | string): string {
  const path = join(directory, name);
  writeFileSync(path, typeof records === 'string' ? records : records.map((record) => JSON.stringify(record)).join('\n'));
  return path;
}

function errorOf(run: () => unknown): InvalidInputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error('expected an InvalidInputError');
}

const gsm8k = [
  { question: 'Janet has 16 eggs...', answer: 'She sells 16 - 3 = <<16-3=13>>13.\n#### 18' },
  { question: 'How many?', answer: 'It is 1,000.\n#### 1,000' },
];
const hotpot = {
  _id: 'h1',
  question: 'Which city?',
  answer: 'Paris',
  supporting_facts: [['France', 0], ['Paris', 1], ['France', 2]],
  context: [['France', ['France is a country.']], ['Paris', ['Paris.', ' Capital.']], ['Rome', ['Rome.']]],
  type: 'bridge',
  level: 'hard',
};
const musique = {
  id: '2hop__1_2',
  question: 'Who founded it?',
  answer: 'G. Stanley Hall',
  answer_aliases: ['Stanley Hall'],
  answerable: true,
  paragraphs: [
    { idx: 0, title: 'APA', paragraph_text: 'The APA...', is_supporting: true },
    { idx: 1, title: 'Noise', paragraph_text: '...', is_supporting: false },
    { idx: 2, title: 'Hall', paragraph_text: 'Hall was...', is_supporting: true },
  ],
  question_decomposition: [{ question: 'a' }, { question: 'b' }],
};

describe('loaders', () => {
  test('GSM8K: gold after ####, solution kept, line ids', () => {
    const tasks = loadSuite(file('gsm8k.jsonl', gsm8k), 'gsm8k');
    expect(tasks.map((task) => [task.id, task.suite, task.answer])).toEqual([
      ['gsm8k-1', 'gsm8k', '18'],
      ['gsm8k-2', 'gsm8k', '1,000'],
    ]);
    expect(tasks[0]!.metadata).toEqual({ solution: 'She sells 16 - 3 = <<16-3=13>>13.' });
    for (const task of tasks) expect(TaskSchema.parse(task)).toEqual(task);
  });

  test('MATH: unique_id, level from "Level 5", answer from the boxed solution when absent', () => {
    const tasks = loadSuite(
      file('math.jsonl', [
        { problem: 'P1', answer: '\\frac12', level: '2', subject: 'Algebra', unique_id: 'test/algebra/1.json' },
        { problem: 'P2', solution: 'So $x = \\boxed{\\frac{1}{2}}$.', level: 'Level 5', type: 'Geometry' },
      ]),
      'math',
    );
    expect(tasks).toEqual([
      { id: 'test/algebra/1.json', suite: 'math', question: 'P1', answer: '\\frac12', metadata: { level: 2, subject: 'Algebra' } },
      { id: 'math-2', suite: 'math', question: 'P2', answer: '\\frac{1}{2}', metadata: { level: 5, subject: 'Geometry' } },
    ]);
  });

  test('AIME: integer answers without leading zeros; numeric answers accepted', () => {
    const tasks = loadSuite(file('aime.jsonl', [{ id: '2024-I-1', year: 2024, exam: 'I', number: 1, problem: 'P', answer: '025' }, { question: 'Q', answer: 7 }]), 'aime');
    expect(tasks).toEqual([
      { id: '2024-I-1', suite: 'aime', question: 'P', answer: '25', metadata: { year: 2024, exam: 'I', number: 1 } },
      { id: 'aime-2', suite: 'aime', question: 'Q', answer: '7', metadata: {} },
    ]);
  });

  test('HotpotQA: supporting titles (distinct), facts and candidate titles; JSON arrays too', () => {
    const expected = {
      id: 'h1',
      suite: 'hotpotqa',
      question: 'Which city?',
      answer: 'Paris',
      metadata: {
        supportingTitles: ['France', 'Paris'],
        supportingFacts: [['France', 0], ['Paris', 1], ['France', 2]],
        contextTitles: ['France', 'Paris', 'Rome'],
        type: 'bridge',
        level: 'hard',
      },
    };
    expect(loadSuite(file('hotpot.jsonl', [hotpot]), 'hotpotqa')).toEqual([expected]);
    expect(loadSuite(file('hotpot.json', JSON.stringify([hotpot], null, 2)), 'hotpotqa')).toEqual([expected]);
  });

  test('MuSiQue: aliases, supporting titles and paragraphs, hops; unanswerable records ungraded', () => {
    const unanswerable = { ...musique, id: '3hop1__9', answerable: false };
    const tasks = loadSuite(file('musique.jsonl', [musique, unanswerable]), 'musique');
    expect(tasks[0]).toEqual({
      id: '2hop__1_2',
      suite: 'musique',
      question: 'Who founded it?',
      answer: 'G. Stanley Hall',
      answerAliases: ['Stanley Hall'],
      metadata: { supportingTitles: ['APA', 'Hall'], supportingParagraphs: [0, 2], hops: 2, answerable: true },
    });
    expect(tasks[1]).not.toHaveProperty('answer');
    expect(tasks[1]!.metadata).toMatchObject({ hops: 3, answerable: false });
  });

  test('generic JSONL: mapped and nested fields, numeric answers, line ids, the rest as metadata', () => {
    const path = file('custom.jsonl', [
      { prompt: 'What is 2+2?', target: { value: 4 }, key: 'a', difficulty: 'easy' },
      { prompt: 'Capital of France?', target: { value: 'Paris' }, accepted: ['paris, france'] },
    ]);
    const tasks = loadSuite(path, 'jsonl', { questionField: 'prompt', answerField: 'target.value', idField: 'key', aliasesField: 'accepted', suite: 'custom' });
    expect(tasks).toEqual([
      { id: 'a', suite: 'custom', question: 'What is 2+2?', answer: '4', metadata: { target: { value: 4 }, difficulty: 'easy' } },
      { id: 'custom-2', suite: 'custom', question: 'Capital of France?', answer: 'Paris', answerAliases: ['paris, france'], metadata: { target: { value: 'Paris' } } },
    ]);
  });

  test("generic JSONL reads orchrm's own task files with the default mapping", () => {
    const path = file('orchrm.jsonl', [{ id: 't1', suite: 'arith', question: '1+1?', answer: '2', metadata: { depth: 1 } }]);
    expect(loadSuite(path, 'jsonl')).toEqual([{ id: 't1', suite: 'arith', question: '1+1?', answer: '2', metadata: { depth: 1 } }]);
  });
});

describe('errors name the file, the line and the field', () => {
  test('GSM8K', () => {
    const path = file('bad-gsm8k.jsonl', [gsm8k[0], { question: 'Q', answer: 'no final line' }, { answer: 'x\n#### 1' }].map((record) => JSON.stringify(record)).join('\n') + '\n{oops\n');
    const error = errorOf(() => loadSuite(path, 'gsm8k'));
    expect(error.message).toContain(`GSM8K file ${path} is invalid:`);
    expect(error.issues.map((issue) => issue.path)).toEqual(['line 2: answer', 'line 3: question', 'line 4']);
    expect(error.issues[0]!.message).toContain('#### <final answer>');
    expect(error.issues[2]!.message).toMatch(/^not valid JSON/);
  });

  test('AIME, HotpotQA, MuSiQue, MATH and duplicates', () => {
    const aime = errorOf(() => loadSuite(file('bad-aime.jsonl', [{ problem: 'P', answer: '12.5' }, { answer: '1' }]), 'aime'));
    expect(aime.issues).toEqual([
      { path: 'line 1: answer', message: 'answer must be an integer from 0 to 999 (e.g. "25" or "025")' },
      { path: 'line 2: problem', message: 'give the problem text as "problem"' },
    ]);
    const hotpotError = errorOf(() => loadSuite(file('bad-hotpot.jsonl', [{ ...hotpot, supporting_facts: [['France', 'zero']] }, hotpot, hotpot]), 'hotpotqa'));
    expect(hotpotError.issues.map((issue) => issue.path)).toEqual(['line 1: supporting_facts[0][1]', 'line 3: id']);
    expect(hotpotError.issues[1]!.message).toBe('duplicate task id "h1" (first used on line 2)');
    const musiqueError = errorOf(() => loadSuite(file('bad-musique.jsonl', [{ ...musique, paragraphs: [{ idx: 0, title: 'T' }] }]), 'musique'));
    expect(musiqueError.issues.map((issue) => issue.path)).toEqual(['line 1: paragraphs[0].paragraph_text']);
    const mathError = errorOf(() => loadSuite(file('bad-math.jsonl', [{ problem: 'P', solution: 'no box' }, { problem: 'P', level: 'hard', answer: '1' }]), 'math'));
    expect(mathError.issues.map((issue) => issue.path)).toEqual(['line 1', 'line 2: level']);
  });

  test('generic JSONL names the mapped field and the flag', () => {
    const error = errorOf(() => loadSuite(file('bad-custom.jsonl', [{ prompt: 'Q' }, { question: 'Q', answer: { nested: true } }]), 'jsonl'));
    expect(error.issues.map((issue) => issue.path)).toEqual(['line 1: question', 'line 2: answer']);
    expect(error.issues[0]!.message).toContain('--question-field');
    expect(error.issues[1]!.message).toContain('--answer-field');
  });

  test('caps the listed problems and says how many records were bad', () => {
    const path = file('many-bad.jsonl', Array.from({ length: 30 }, () => ({ problem: 'P', answer: 'x' })));
    const error = errorOf(() => loadSuite(path, 'aime'));
    expect(error.issues).toHaveLength(20);
    expect(error.message).toContain('(30 bad records in all; the first 20 problems are listed)');
  });

  test('missing and empty files are user errors', () => {
    expect(() => loadSuite(join(directory, 'missing.jsonl'), 'gsm8k')).toThrow(UserError);
    expect(() => loadSuite(file('empty.jsonl', '\n\n'), 'gsm8k')).toThrow(/holds no records/);
  });
});

describe('detectSuite', () => {
  test('recognises each format from its first record', () => {
    expect(detectSuite(file('d-gsm8k.jsonl', gsm8k))).toBe('gsm8k');
    expect(detectSuite(file('d-math.jsonl', [{ problem: 'P', answer: '\\frac12', level: 1 }]))).toBe('math');
    expect(detectSuite(file('d-aime.jsonl', [{ problem: 'P', answer: '25' }]))).toBe('aime');
    expect(detectSuite(file('d-hotpot.json', JSON.stringify([hotpot])))).toBe('hotpotqa');
    expect(detectSuite(file('d-musique.jsonl', [musique]))).toBe('musique');
    expect(detectSuite(file('d-other.jsonl', [{ id: 'x', question: 'Q' }]))).toBe('jsonl');
    expect(loadSuite(file('d-auto.jsonl', gsm8k), 'auto')[0]!.suite).toBe('gsm8k');
  });
});
