/**
 * MurmurHash3 (x86, 32-bit; Appleby, public domain) pieces used by the feature hashers. The
 * hashers feed 16-bit UTF-16 code units or whole 32-bit token hashes one block at a time, so
 * no substring is ever built; `murmurFinish` applies the standard length mix and avalanche.
 */

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** Mixes one 32-bit block into the running hash `hash`. */
export function murmurMix(hash: number, block: number): number {
  let k = Math.imul(block, C1);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, C2);
  let h = hash ^ k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** Final avalanche after `length` blocks; returns an unsigned 32-bit hash. */
export function murmurFinish(hash: number, length: number): number {
  let h = hash ^ length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Hash of a string, one UTF-16 code unit per block, under a seed (so one string hashes
 * differently in each namespace).
 *
 * @example
 * murmur3String('cot', 7) !== murmur3String('cot', 8) // namespaces differ
 */
export function murmur3String(text: string, seed: number): number {
  let hash = seed | 0;
  for (let index = 0; index < text.length; index++) hash = murmurMix(hash, text.charCodeAt(index));
  return murmurFinish(hash, text.length);
}

/** Hash of a short sequence of 32-bit values (e.g. token hashes of an n-gram) under a seed. */
export function murmur3Ints(seed: number, a: number, b?: number, c?: number): number {
  let hash = murmurMix(seed | 0, a);
  if (b === undefined) return murmurFinish(hash, 1);
  hash = murmurMix(hash, b);
  if (c === undefined) return murmurFinish(hash, 2);
  return murmurFinish(murmurMix(hash, c), 3);
}
