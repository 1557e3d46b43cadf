import { describe, expect, it } from 'vitest';
import { hashedEmbedding } from './hashed-embedding.js';

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

function cosine(left: Float32Array, right: Float32Array): number {
  return left.reduce((sum, value, index) => sum + value * (right[index] ?? 0), 0);
}

describe('hashedEmbedding', () => {
  it('is deterministic, case-insensitive and unit-norm', () => {
    const first = hashedEmbedding('The capital of France is Paris.');
    expect(first).toHaveLength(256);
    expect(hashedEmbedding('The capital of France is Paris.')).toStrictEqual(first);
    expect(hashedEmbedding('the CAPITAL of france is paris')).toStrictEqual(first);
    for (const text of ['a', 'x y z', '???', '🙂', 'word '.repeat(500), 'Über straße 12']) {
      for (const dimensions of [1, 2, 7, 256, 1024]) expect(Math.abs(norm(hashedEmbedding(text, dimensions)) - 1)).toBeLessThan(1e-6);
    }
  });

  it('gives texts sharing words a higher similarity than unrelated texts', () => {
    const question = hashedEmbedding('Which company did Ada Lovelace found in London?', 512);
    const related = hashedEmbedding('Ada Lovelace founded a company in London in 1843.', 512);
    const unrelated = hashedEmbedding('Seven apples and three pears cost nine dollars.', 512);
    expect(cosine(question, related)).toBeGreaterThan(0.3);
    expect(cosine(question, related)).toBeGreaterThan(cosine(question, unrelated) + 0.2);
  });

  it('tells word order apart through bigrams', () => {
    const forward = hashedEmbedding('dog bites man');
    const backward = hashedEmbedding('man bites dog');
    expect(forward).not.toStrictEqual(backward);
    expect(cosine(forward, backward)).toBeGreaterThan(0.3);
  });

  it('embeds a text without words by hashing it whole', () => {
    expect(hashedEmbedding('?!')).not.toStrictEqual(hashedEmbedding('...'));
  });
});
