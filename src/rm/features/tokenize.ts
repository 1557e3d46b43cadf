import { murmurFinish, murmurMix } from './murmur3.js';

/** Longest text tokenised; longer texts are cut (a plan or task is a few kilobytes). */
export const MAX_TOKENIZED_CHARS = 200_000;

/** Lower-cases ASCII letters; other code units pass through. */
export function lowerCode(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/**
 * Word characters: ASCII letters, digits and `_`, and every non-ASCII code unit except the
 * common spaces (so accented and CJK text forms words without a Unicode regex).
 */
export function isWordCode(code: number): boolean {
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95;
  return code !== 0xa0 && code !== 0x2028 && code !== 0x2029 && code !== 0xfeff && !(code >= 0x2000 && code <= 0x200b) && code !== 0x3000;
}

/**
 * Hashes every lower-cased word of `text` into `out` (a 32-bit hash per word, seed 0) without
 * building substrings, and returns the word count. `out` must hold `text.length / 2 + 1` entries
 * (a word is at least one character followed by a separator).
 */
export function hashWords(text: string, out: Uint32Array): number {
  const length = Math.min(text.length, MAX_TOKENIZED_CHARS);
  let count = 0;
  let hash = 0;
  let wordLength = 0;
  for (let index = 0; index <= length; index++) {
    const code = index < length ? text.charCodeAt(index) : 32;
    if (isWordCode(code)) {
      hash = murmurMix(hash, lowerCode(code));
      wordLength++;
    } else if (wordLength > 0) {
      out[count++] = murmurFinish(hash, wordLength);
      hash = 0;
      wordLength = 0;
    }
  }
  return count;
}

/**
 * The words `hashWords` hashes, as lower-cased strings in order (word i hashes to
 * `murmur3String(words[i], 0)`, which is `hashWords`' hash i): for naming features, not for
 * the hot path.
 */
export function splitWords(text: string): string[] {
  const length = Math.min(text.length, MAX_TOKENIZED_CHARS);
  const words: string[] = [];
  let codes: number[] = [];
  for (let index = 0; index <= length; index++) {
    const code = index < length ? text.charCodeAt(index) : 32;
    if (isWordCode(code)) codes.push(lowerCode(code));
    else if (codes.length > 0) {
      words.push(String.fromCharCode(...codes));
      codes = [];
    }
  }
  return words;
}
