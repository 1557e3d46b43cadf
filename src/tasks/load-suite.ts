import { z } from 'zod';
import { InvalidUtf8Error, readTextFile, type Task, UserError } from '../core/index.js';
import { loadAime } from './load-aime.js';
import { loadGsm8k } from './load-gsm8k.js';
import { loadHotpotQa } from './load-hotpotqa.js';
import { loadJsonlTasks, type JsonlFieldMapping } from './load-jsonl-tasks.js';
import { loadMath } from './load-math.js';
import { loadMusique } from './load-musique.js';

/** Benchmark formats orchrm reads; `jsonl` is any JSONL with field mapping. */
export const SUITES = ['gsm8k', 'math', 'aime', 'hotpotqa', 'musique', 'jsonl'] as const;
export const SuiteSchema = z.enum(SUITES, { error: `suite must be one of: ${SUITES.join(', ')}` });
export type Suite = z.infer<typeof SuiteSchema>;

/** Options of `loadSuite`; the field mapping applies to the `jsonl` suite only. */
export type LoadSuiteOptions = JsonlFieldMapping;

/**
 * Loads a benchmark file in the given suite's format (`auto` guesses it from the first record
 * with `detectSuite`). Every loader validates every record and reports all bad ones at once.
 *
 * @example
 * const tasks = loadSuite('data/hotpot_dev_distractor_v1.json', 'hotpotqa');
 * const custom = loadSuite('mine.jsonl', 'jsonl', { questionField: 'prompt', answerField: 'target' });
 */
export function loadSuite(path: string, suite: Suite | 'auto', options: LoadSuiteOptions = {}): Task[] {
  const resolved = suite === 'auto' ? detectSuite(path) : suite;
  switch (resolved) {
    case 'gsm8k':
      return loadGsm8k(path);
    case 'math':
      return loadMath(path);
    case 'aime':
      return loadAime(path);
    case 'hotpotqa':
      return loadHotpotQa(path);
    case 'musique':
      return loadMusique(path);
    case 'jsonl':
      return loadJsonlTasks(path, options);
  }
}

/**
 * Guesses a file's suite from its first record: `supporting_facts` and `context` -> hotpotqa,
 * `paragraphs` -> musique, `problem` with `level`, `subject`, `type` or `unique_id` (or with a
 * non-integer answer) -> math, any other `problem` -> aime, an answer ending in `#### N` ->
 * gsm8k, anything else -> jsonl.
 */
export function detectSuite(path: string): Suite {
  const record = firstRecord(path);
  if (record === undefined) return 'jsonl';
  if ('supporting_facts' in record && 'context' in record) return 'hotpotqa';
  if ('paragraphs' in record && Array.isArray(record.paragraphs)) return 'musique';
  if ('problem' in record) {
    const mathFields = ['level', 'subject', 'type', 'unique_id'].some((field) => field in record);
    const integerAnswer = /^\s*\d{1,3}\s*$/.test(String(record.answer ?? ''));
    return mathFields || !integerAnswer ? 'math' : 'aime';
  }
  if (typeof record.answer === 'string' && /\n####\s*\S/.test(record.answer)) return 'gsm8k';
  return 'jsonl';
}

function firstRecord(path: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readTextFile(path);
  } catch (error) {
    if (error instanceof InvalidUtf8Error) throw error;
    throw new UserError(`cannot read ${path}: ${(error as Error).message}; check the path`, { cause: error });
  }
  try {
    const body = text.trimStart();
    const value: unknown = body.startsWith('[') ? (JSON.parse(body) as unknown[])[0] : JSON.parse(body.slice(0, body.indexOf('\n') === -1 ? undefined : body.indexOf('\n')));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    // The loader will report the bad line precisely.
    return undefined;
  }
}
