import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Task } from '../core/task.js';
import { createBm25Retriever } from './bm25-retriever.js';
import { loadCorpus } from './corpus.js';
import { evaluateSupportRecall } from './evaluate-support-recall.js';
import { gradeAnswer, graderFor } from './grader-for.js';
import { detectSuite, loadSuite, type Suite } from './load-suite.js';
import { corpusTitles, supportRecall } from './support-recall.js';

/** The benchmark fixtures shared beside the repository (see SOURCES.md there); never copied in. */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dataDirectory = resolve(repoRoot, '../shared/data');
const available = existsSync(dataDirectory);
if (!available) console.warn(`skipping benchmark-file tests: ${dataDirectory} does not exist (it holds the shared GSM8K, MATH-500, AIME, HotpotQA and MuSiQue fixtures)`);

const FILES: readonly { file: string; suite: Suite; records: number }[] = [
  { file: 'gsm8k-test.jsonl', suite: 'gsm8k', records: 1319 },
  { file: 'math500-test.jsonl', suite: 'math', records: 500 },
  { file: 'aime-2024.jsonl', suite: 'aime', records: 30 },
  { file: 'aime-2025.jsonl', suite: 'aime', records: 30 },
  { file: 'hotpotqa-dev-distractor-200.jsonl', suite: 'hotpotqa', records: 200 },
  { file: 'musique-ans-train-100.jsonl', suite: 'musique', records: 100 },
];

/** `12345` -> `12,345`. */
const withCommas = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * Rewrites of a MATH gold that the field's graders count as the same answer: `\frac` and
 * `\dfrac` swapped, `a/b` for a numeric fraction and its decimal when that is exact, `\left(`
 * `\right)` around a tuple, the `,\!` thousands separator as a comma and as plain digits, `.0`
 * after an integer, a sentence around the answer. Each differs from the gold as a string.
 */
function mathEquivalents(gold: string): string[] {
  // Spaces after commas, except in a number's thousands separators (`58,500` is not `58, 500`).
  const spaced = /^-?\d{1,3}(?:,\d{3})+$/.test(gold) ? ` ${gold} ` : gold.replace(/\s+/g, '  ').replace(/,(?!\\!)/g, ', ');
  const forms = new Set<string>([`The answer is $${gold}$.`, spaced]);
  if (gold.includes('\\frac')) forms.add(gold.replace(/\\frac/g, '\\dfrac'));
  if (gold.includes('\\dfrac')) forms.add(gold.replace(/\\dfrac/g, '\\frac'));
  const fraction = /^(-?)\\frac\{(\d+)\}\{(\d+)\}$/.exec(gold);
  if (fraction) {
    const [, sign = '', numerator = '', denominator = ''] = fraction;
    forms.add(`${sign}${numerator}/${denominator}`);
    // Only a terminating decimal is the fraction exactly (1/8 is 0.125; 1/3 has no such form).
    const reduced = Number(denominator) / gcd(Number(numerator), Number(denominator));
    if (/^(?:2|5)*$/.test(factorTwosAndFives(reduced))) forms.add(`${sign}${(Number(numerator) / Number(denominator)).toString()}`);
  }
  if (/^\\left\(.*\\right\)$/.test(gold)) forms.add(gold.replace(/^\\left\(/, '(').replace(/\\right\)$/, ')'));
  else if (/^\(.*\)$/.test(gold) && !gold.includes('\\cup')) forms.add(`\\left(${gold.slice(1, -1)}\\right)`);
  if (gold.includes(',\\!')) {
    forms.add(gold.replace(/,\\!\s*/g, ','));
    forms.add(gold.replace(/,\\!\s*/g, ''));
  }
  if (/^-?\d+$/.test(gold)) {
    forms.add(`${gold}.0`);
    if (gold.replace('-', '').length > 3) forms.add(withCommas(gold));
  }
  return [...forms].filter((form) => form !== gold);
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The prime factors of n as digits if they are only 2s and 5s, else `x`. */
function factorTwosAndFives(n: number): string {
  let rest = n;
  let digits = '';
  for (const prime of [2, 5]) {
    while (rest % prime === 0) {
      rest /= prime;
      digits += String(prime);
    }
  }
  return rest === 1 ? digits : 'x';
}

/** Ways a correct answer is commonly rewritten by a model, per suite. */
function reformattings(suite: Suite, gold: string): string[] {
  switch (suite) {
    case 'gsm8k': {
      const plain = gold.replace(/,/g, '');
      const forms = [`${plain}.00`, `$${gold}`, `\\$${plain}`, `${gold} dollars`, `\\boxed{${plain}}`, ` ${plain}. `, `The answer is ${plain}.`];
      if (/^-?\d{4,}$/.test(plain)) forms.push(withCommas(plain));
      if (/^[1-9]\d*000000$/.test(plain)) forms.push(`${plain.slice(0, -6)} million`);
      return forms;
    }
    case 'math':
      return [`$${gold}$`, `\\boxed{${gold}}`, `$\\boxed{${gold}}$.`, ` ${gold} `, ...mathEquivalents(gold)];
    case 'aime':
      return [gold.padStart(3, '0'), `\\boxed{${gold}}`, `$${gold}$`, `${gold}.0`, `The answer is ${gold}.`];
    default:
      return [`The ${gold}.`, gold.toUpperCase(), `  ${gold}  `];
  }
}

describe.skipIf(!available)('shared benchmark files', () => {
  const loaded = new Map<string, Task[]>();
  const tasksOf = (file: string, suite: Suite) => {
    if (!loaded.has(file)) loaded.set(file, loadSuite(join(dataDirectory, file), suite));
    return loaded.get(file)!;
  };

  test.each(FILES)('$file loads as $suite with every record', ({ file, suite, records }) => {
    const tasks = tasksOf(file, suite);
    expect(tasks).toHaveLength(records);
    expect(detectSuite(join(dataDirectory, file))).toBe(suite);
    expect(tasks.every((task) => task.answer !== undefined && task.answer !== '')).toBe(true);
  });

  test('the retrieval corpora load', async () => {
    expect(await loadCorpus(join(dataDirectory, 'hotpotqa-dev-distractor-200-corpus.jsonl'))).toHaveLength(1999);
    expect(await loadCorpus(join(dataDirectory, 'musique-ans-train-100-corpus.jsonl'))).toHaveLength(1890);
  });

  test.each(FILES)("every gold of $file grades correct against itself and its common reformattings with the suite's grader", async ({ file, suite }) => {
    const grader = graderFor(suite);
    const failures: string[] = [];
    let pairs = 0;
    for (const task of tasksOf(file, suite)) {
      for (const answer of [task.answer!, ...reformattings(suite, task.answer!), ...(task.answerAliases ?? [])]) {
        pairs++;
        const grade = await grader(task, answer);
        if (grade?.correct !== true) failures.push(`${task.id}: gold ${JSON.stringify(task.answer)} vs ${JSON.stringify(answer)}`);
      }
    }
    console.log(`${file}: ${tasksOf(file, suite).length} golds, ${pairs} gold/answer pairs (the gold itself and its reformattings), ${pairs - failures.length} graded correct`);
    expect(failures).toEqual([]);
  });

  test("MATH-500's golds with `,\\!` thousands separators match the plain number and its comma form, not a neighbour", () => {
    const separated = tasksOf('math500-test.jsonl', 'math').filter((task) => task.answer!.includes(',\\!'));
    expect(separated.map((task) => task.answer).sort()).toEqual(['10,\\!080', '11,\\! 111,\\! 111,\\! 100', '\\$32,\\!348']);
    for (const task of separated) {
      const digits = task.answer!.replace(/[^\d]/g, '');
      expect(gradeAnswer('math', task.answer!, digits).correct).toBe(true);
      expect(gradeAnswer('math', task.answer!, withCommas(digits)).correct).toBe(true);
      expect(gradeAnswer('math', task.answer!, String(BigInt(digits) + 1n)).correct).toBe(false);
    }
  });

  test('GSM8K and AIME golds reject a neighbouring number', () => {
    for (const [file, suite] of [
      ['gsm8k-test.jsonl', 'gsm8k'],
      ['aime-2025.jsonl', 'aime'],
    ] as const) {
      for (const task of tasksOf(file, suite)) {
        const neighbour = String(Number(task.answer!.replace(/,/g, '')) + 1);
        expect(gradeAnswer(suite, task.answer!, neighbour).correct, `${task.id}: ${task.answer} vs ${neighbour}`).toBe(false);
      }
    }
  });

  test('MATH golds are told apart from one another', () => {
    const answers = [...new Set(tasksOf('math500-test.jsonl', 'math').map((task) => task.answer!))];
    // Each gold against the next distinct one: distinct MATH answers are rarely equivalent.
    const equivalentNeighbours = answers.filter((answer, index) => gradeAnswer('math', answer, answers[(index + 1) % answers.length]!).correct);
    expect(equivalentNeighbours).toEqual([]);
  });

  test('BM25 over the HotpotQA corpus, queried with each question: recall@5 and recall@10 of supporting titles', async () => {
    const corpus = await loadCorpus(join(dataDirectory, 'hotpotqa-dev-distractor-200-corpus.jsonl'));
    const tasks = tasksOf('hotpotqa-dev-distractor-200.jsonl', 'hotpotqa');
    const report = await evaluateSupportRecall(tasks, createBm25Retriever(corpus), [5, 10]);
    const [atFive, atTen] = report.byK;
    console.log(
      `HotpotQA (${report.tasks} questions, ${corpus.length} paragraphs) BM25 recall@5 ${atFive!.meanRecall.toFixed(4)} (all supports ${atFive!.completeRate.toFixed(3)}), recall@10 ${atTen!.meanRecall.toFixed(4)} (all supports ${atTen!.completeRate.toFixed(3)})`,
    );
    expect(report.tasks).toBe(200);
    expect(atTen!.meanRecall).toBeGreaterThanOrEqual(atFive!.meanRecall);
    expect(atFive!.meanRecall).toBeGreaterThan(0.5);
    expect(atTen!.meanRecall).toBeGreaterThan(0.7);
  });

  test('MuSiQue: recall from search artifacts maps integer corpus ids to titles', async () => {
    const corpus = await loadCorpus(join(dataDirectory, 'musique-ans-train-100-corpus.jsonl'));
    const tasks = tasksOf('musique-ans-train-100.jsonl', 'musique');
    const retriever = createBm25Retriever(corpus);
    const report = await evaluateSupportRecall(tasks, retriever, [5, 10]);
    console.log(`MuSiQue (${report.tasks} questions, ${corpus.length} paragraphs) BM25 recall@5 ${report.byK[0]!.meanRecall.toFixed(4)}, recall@10 ${report.byK[1]!.meanRecall.toFixed(4)}`);
    // One search node's artifacts, as the search block records them, scored against the task.
    const task = tasks[0]!;
    const documents = await retriever.search(task.question, { topK: 10 });
    const artifacts = { kind: 'search' as const, steps: [{ query: task.question, docIds: documents.map((document) => document.id) }], documentsFound: documents.length };
    const recall = supportRecall(artifacts, task, corpusTitles(corpus))!;
    expect(recall.documentsConsidered).toBe(10);
    const retrievedTitles = documents.map((document) => document.title);
    expect(recall.found.every((title) => retrievedTitles.includes(title))).toBe(true);
    expect(recall.missing.some((title) => retrievedTitles.includes(title))).toBe(false);
    expect(recall.recall).toBe(recall.found.length / recall.supportingTitles.length);
  });
});
