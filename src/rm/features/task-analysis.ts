import { murmur3String } from './murmur3.js';
import { TASK_SHAPE_VERSION, taskShape, type TaskShapeVersion } from './task-shape.js';
import { hashWords, isWordCode } from './tokenize.js';

/**
 * What the encoders need from a task text, computed once per task and shared by every plan
 * scored for it: word hashes, distinct word hashes (for crosses) and the hashes of the named
 * task statistics.
 */
export interface TaskAnalysis {
  readonly text: string;
  /** Hash of every lower-cased word, in order. */
  readonly wordHashes: Uint32Array;
  /** Each distinct word hash once, sorted. */
  readonly distinctWordHashes: Uint32Array;
  /** Hashes (seed 0) of the task-statistic features, e.g. `numbers=3`, `question=how`. */
  readonly statHashes: Uint32Array;
  /** The statistic names, for inspection and tests. */
  readonly statNames: readonly string[];
  /** The task's shape names (`taskShape`, in the reading the model was trained with). */
  readonly shapeNames: readonly string[];
  /** Hashes (seed 0) of `shapeNames`, crossed with the plan's by the `shape` encoder. */
  readonly shapeHashes: Uint32Array;
}

const QUESTION_WORDS = ['what', 'how', 'which', 'who', 'whom', 'whose', 'when', 'where', 'why', 'many', 'much', 'whether'];
const QUESTION_WORD_HASHES = new Map(QUESTION_WORDS.map((word) => [murmur3String(word, 0), word]));

/** floor(log2(count + 1)): 0, 1, 2-3, 4-7, ... share a bucket. */
export const log2Bucket = (count: number) => Math.floor(Math.log2(count + 1));

function countNumbersAndMore(text: string) {
  let numbers = 0;
  let sentences = 0;
  let capitalized = 0;
  let operators = 0;
  let inNumber = false;
  let wordStart = true;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const digit = code >= 48 && code <= 57;
    if (digit && !inNumber) numbers++;
    // A decimal point or thousands comma between digits continues the number.
    inNumber = digit || (inNumber && (code === 46 || code === 44) && index + 1 < text.length && isDigit(text.charCodeAt(index + 1)));
    if ((code === 46 || code === 63 || code === 33) && (index + 1 === text.length || text.charCodeAt(index + 1) <= 32)) sentences++;
    if (wordStart && code >= 65 && code <= 90) capitalized++;
    if (code === 43 || code === 42 || code === 47 || code === 61 || code === 94 || code === 37 || code === 215 || code === 247) operators++;
    wordStart = !isWordCode(code);
  }
  if (sentences === 0 && text.trim() !== '') sentences = 1;
  return { numbers, sentences, capitalized, operators };
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * Analyses a task text. Statistics are bucketed indicators (log2 buckets for lengths) so a
 * linear head can learn non-monotone effects; `task=any` is always present so crosses with it
 * give every block type its own prior. Each field is computed on first read (an encoder spec
 * reads only some of them), then kept.
 *
 * @example
 * analyzeTask('How many apples are left?').statNames // ['task=any', 'chars=4', 'words=3', ..., 'question=how', 'question=many']
 */
export function analyzeTask(text: string, shapeVersion: TaskShapeVersion = TASK_SHAPE_VERSION): TaskAnalysis {
  return new LazyTaskAnalysis(text, shapeVersion);
}

class LazyTaskAnalysis implements TaskAnalysis {
  private words: Uint32Array | undefined;
  private distinctWords: Uint32Array | undefined;
  private names: readonly string[] | undefined;
  private stats: Uint32Array | undefined;
  private shapes: Uint32Array | undefined;
  private shapeNameList: readonly string[] | undefined;

  constructor(
    readonly text: string,
    private readonly shapeVersion: TaskShapeVersion,
  ) {}

  get wordHashes(): Uint32Array {
    if (this.words === undefined) {
      const scratch = new Uint32Array((this.text.length >> 1) + 1);
      this.words = scratch.slice(0, hashWords(this.text, scratch));
    }
    return this.words;
  }

  get distinctWordHashes(): Uint32Array {
    return (this.distinctWords ??= Uint32Array.from(new Set(this.wordHashes)).sort());
  }

  get statNames(): readonly string[] {
    return (this.names ??= taskStatNames(this.text, this.wordHashes));
  }

  get statHashes(): Uint32Array {
    return (this.stats ??= Uint32Array.from(this.statNames, (name) => murmur3String(name, 0)));
  }

  get shapeNames(): readonly string[] {
    return (this.shapeNameList ??= taskShape(this.text, this.shapeVersion));
  }

  get shapeHashes(): Uint32Array {
    return (this.shapes ??= Uint32Array.from(this.shapeNames, (name) => murmur3String(name, 0)));
  }
}

function taskStatNames(text: string, wordHashes: Uint32Array): string[] {
  const { numbers, sentences, capitalized, operators } = countNumbersAndMore(text);
  const statNames = [
    'task=any',
    `chars=${log2Bucket(text.length)}`,
    `words=${log2Bucket(wordHashes.length)}`,
    `numbers=${Math.min(numbers, 8)}`,
    `sentences=${Math.min(sentences, 6)}`,
    `capitalized=${log2Bucket(capitalized)}`,
    `operators=${Math.min(operators, 4)}`,
  ];
  if (text.includes('?')) statNames.push('question_mark');
  const seen = new Set<string>();
  for (const hash of wordHashes) {
    const word = QUESTION_WORD_HASHES.get(hash);
    if (word !== undefined && !seen.has(word)) {
      seen.add(word);
      statNames.push(`question=${word}`);
    }
  }
  return statNames;
}
