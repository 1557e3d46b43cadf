import { describe, expect, test } from 'vitest';
import { normalizeWhitespace } from './canonicalize-plan.js';

describe('normalizeWhitespace', () => {
  const regexForm = (text: string) => text.replace(/\s+/g, ' ').trim();

  test('collapses every kind of whitespace the regex \\s matches, and trims', () => {
    expect(normalizeWhitespace('  a \t b\n\nc\u00a0\u2003d\ufeff ')).toBe('a b c d');
    expect(normalizeWhitespace('already normal text')).toBe('already normal text');
    expect(normalizeWhitespace('')).toBe('');
    expect(normalizeWhitespace('   ')).toBe('');
  });

  test('matches the regex form on random texts', () => {
    const alphabet = ['a', 'b', ' ', ' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2000', '\u200a', '\u200b', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\u0085', 'é'];
    let state = 12345;
    const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
    for (let round = 0; round < 2000; round++) {
      const length = next() % 12;
      let text = '';
      for (let index = 0; index < length; index++) text += alphabet[next() % alphabet.length];
      expect(normalizeWhitespace(text)).toBe(regexForm(text));
    }
  });
});
