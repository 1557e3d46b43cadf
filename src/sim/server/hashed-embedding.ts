import { fnv1a32 } from '../../core/index.js';

/** Model name under which the server offers hashed embeddings, unless told another. */
export const DEFAULT_EMBEDDING_MODEL = 'sim-embedding';

/** Embedding width when a request names none. */
export const DEFAULT_EMBEDDING_DIMENSIONS = 256;

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A deterministic text embedding by signed feature hashing (Weinberger et al., 2009): every
 * lower-cased word unigram and bigram adds +1 or -1 (a second bit of its hash) to the
 * coordinate its hash selects; the vector is then L2-normalised, as OpenAI embeddings are. Texts
 * sharing words get a positive cosine similarity, which is all clients under test need; the
 * vectors carry no meaning beyond word overlap.
 *
 * A text without words (punctuation only) is hashed whole; the rare vector whose features all
 * cancel becomes the first unit vector, so every result has norm 1.
 *
 * @example
 * hashedEmbedding('the cat sat', 8); // Float32Array(8) of norm 1
 */
export function hashedEmbedding(text: string, dimensions: number = DEFAULT_EMBEDDING_DIMENSIONS): Float32Array {
  const vector = new Float64Array(dimensions);
  const words = text.toLowerCase().match(WORD) ?? [];
  const add = (feature: string) => {
    const hash = fnv1a32(feature);
    // Low bits pick the coordinate, the top bit the sign, so one hash does both.
    vector[(hash & 0x7fffffff) % dimensions]! += hash >>> 31 === 1 ? -1 : 1;
  };
  if (words.length === 0) add(`t:${text}`);
  for (let index = 0; index < words.length; index++) {
    add(`u:${words[index]}`);
    if (index > 0) add(`b:${words[index - 1]} ${words[index]}`);
  }
  let squaredNorm = 0;
  for (const value of vector) squaredNorm += value * value;
  const embedding = new Float32Array(dimensions);
  if (squaredNorm === 0) {
    embedding[0] = 1;
    return embedding;
  }
  const scale = 1 / Math.sqrt(squaredNorm);
  for (let index = 0; index < dimensions; index++) embedding[index] = vector[index]! * scale;
  return embedding;
}
