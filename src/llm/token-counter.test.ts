import { describe, expect, it } from 'vitest';
import { countMessageTokens, countTokens } from './token-counter.js';

describe('countTokens', () => {
  it('counts o200k_base tokens', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
  });

  it('treats special-token text as plain text instead of throwing', () => {
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('adds the per-message and reply framing', () => {
    const messages = [
      { role: 'system' as const, content: 'hello world' },
      { role: 'user' as const, content: 'hello world' },
    ];
    expect(countMessageTokens(messages)).toBe(3 + 2 * (3 + 1 + 2));
  });
});
