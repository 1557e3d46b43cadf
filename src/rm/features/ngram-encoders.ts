import type { FeatureAccumulator } from './feature-accumulator.js';
import type { FeatureEncoder } from './feature-encoder.js';
import { murmur3String, murmurFinish, murmurMix } from './murmur3.js';
import type { NamedFeatureSink } from './named-features.js';
import type { PlanAnalysis } from './plan-analysis.js';
import type { TaskAnalysis } from './task-analysis.js';
import { lowerCode, MAX_TOKENIZED_CHARS, splitWords } from './tokenize.js';

type Side = 'task' | 'plan';

/** Number of n-grams of lengths min..max in a sequence of `length` items. */
function gramCount(length: number, min: number, max: number): number {
  let count = 0;
  for (let n = min; n <= max; n++) count += Math.max(0, length - n + 1);
  return count;
}

/** Lower-cases ASCII letters only, as the hashers do (so one name is one hash). */
function lowerAscii(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/**
 * Hashed word n-grams of one side (its own namespace seed). Each n-gram adds ±1/sqrt(count),
 * so a side's block has norm about 1 whatever the text length.
 *
 * @example
 * createWordNgramEncoder('plan', 1, 2, (1 << 18) - 1) // the `words:1-2@plan` encoder
 */
export function createWordNgramEncoder(side: Side, min: number, max: number, mask: number): FeatureEncoder {
  const seeds = Array.from({ length: max + 1 }, (_, n) => murmur3String(`words:${side}:${n}`, 0));
  return {
    name: `words:${min}-${max}@${side}`,
    taskOnly: side === 'task',
    encode(task: TaskAnalysis, plan: PlanAnalysis, out: FeatureAccumulator) {
      const words = side === 'task' ? task.wordHashes : plan.wordHashes;
      const length = words.length;
      const total = gramCount(length, min, max);
      if (total === 0) return;
      const value = 1 / Math.sqrt(total);
      for (let n = min; n <= max; n++) {
        const seed = seeds[n]!;
        for (let start = 0; start + n <= length; start++) {
          let hash = seed;
          for (let offset = 0; offset < n; offset++) hash = murmurMix(hash, words[start + offset]!);
          out.addHashed(murmurFinish(hash, n), mask, value);
        }
      }
    },
    explain(task: TaskAnalysis, plan: PlanAnalysis, out: NamedFeatureSink) {
      const text = side === 'task' ? task.text : plan.text;
      const words = side === 'task' ? task.wordHashes : plan.wordHashes;
      const names = splitWords(text);
      const length = words.length;
      const total = gramCount(length, min, max);
      if (total === 0) return;
      const value = 1 / Math.sqrt(total);
      for (let n = min; n <= max; n++) {
        const seed = seeds[n]!;
        for (let start = 0; start + n <= length; start++) {
          let hash = seed;
          for (let offset = 0; offset < n; offset++) hash = murmurMix(hash, words[start + offset]!);
          out.addHashed(`${side} words "${names.slice(start, start + n).join(' ')}"`, murmurFinish(hash, n), mask, value);
        }
      }
    },
  };
}

/**
 * Hashed character n-grams (lower-cased UTF-16 code units, spaces included) of one side. The
 * hash of each n-gram extends the one of the (n-1)-gram at the same start, so a text costs
 * length x max mixing steps and never builds a substring.
 */
export function createCharNgramEncoder(side: Side, min: number, max: number, mask: number): FeatureEncoder {
  const seed = murmur3String(`chars:${side}`, 0);
  return {
    name: `chars:${min}-${max}@${side}`,
    taskOnly: side === 'task',
    encode(task: TaskAnalysis, plan: PlanAnalysis, out: FeatureAccumulator) {
      const text = side === 'task' ? task.text : plan.text;
      const length = Math.min(text.length, MAX_TOKENIZED_CHARS);
      const total = gramCount(length, min, max);
      if (total === 0) return;
      const value = 1 / Math.sqrt(total);
      for (let start = 0; start + min <= length; start++) {
        let hash = seed;
        const end = Math.min(max, length - start);
        for (let n = 1; n <= end; n++) {
          hash = murmurMix(hash, lowerCode(text.charCodeAt(start + n - 1)));
          if (n >= min) out.addHashed(murmurFinish(hash, n), mask, value);
        }
      }
    },
    explain(task: TaskAnalysis, plan: PlanAnalysis, out: NamedFeatureSink) {
      const text = side === 'task' ? task.text : plan.text;
      const length = Math.min(text.length, MAX_TOKENIZED_CHARS);
      const total = gramCount(length, min, max);
      if (total === 0) return;
      const value = 1 / Math.sqrt(total);
      for (let start = 0; start + min <= length; start++) {
        let hash = seed;
        const end = Math.min(max, length - start);
        for (let n = 1; n <= end; n++) {
          hash = murmurMix(hash, lowerCode(text.charCodeAt(start + n - 1)));
          if (n >= min) out.addHashed(`${side} chars "${lowerAscii(text.slice(start, start + n))}"`, murmurFinish(hash, n), mask, value);
        }
      }
    },
  };
}
