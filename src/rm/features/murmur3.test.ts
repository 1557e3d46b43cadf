import { describe, expect, it } from 'vitest';
import { murmur3Ints, murmur3String } from './murmur3.js';

describe('murmur3String', () => {
  it('matches the reference MurmurHash3_x86_32 on one-byte-per-block inputs', () => {
    // Reference values: MurmurHash3_x86_32 over the bytes, seed 0. Our blocks are code units,
    // so only the empty input coincides with the byte-oriented reference.
    expect(murmur3String('', 0)).toBe(0);
    expect(murmur3String('', 1)).toBe(0x514e28b7);
  });

  it('separates namespaces by seed and is stable', () => {
    expect(murmur3String('cot', 1)).not.toBe(murmur3String('cot', 2));
    expect(murmur3String('cot', 1)).toBe(murmur3String('cot', 1));
    expect(murmur3Ints(3, 1, 2)).not.toBe(murmur3Ints(3, 2, 1));
  });

  it('spreads similar strings over the low bits', () => {
    const buckets = new Set<number>();
    for (let index = 0; index < 1000; index++) buckets.add(murmur3String(`token${index}`, 0) & 1023);
    expect(buckets.size).toBeGreaterThan(550);
  });
});
