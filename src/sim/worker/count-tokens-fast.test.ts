import { describe, expect, it } from 'vitest';
import { countMessageTokens } from '../../llm/token-counter.js';
import { countMessageTokensFast, countTokensFast } from './count-tokens-fast.js';
import { sampleBlockPrompts } from './test-fixtures/sample-block-prompts.js';

describe('countTokensFast', () => {
  it('counts word pieces, digit groups, punctuation runs and newline runs', () => {
    expect(countTokensFast('')).toBe(0);
    expect(countTokensFast('Hello world')).toBe(2);
    expect(countTokensFast('internationalization')).toBe(1 + 3);
    expect(countTokensFast('1234567')).toBe(3);
    expect(countTokensFast('<answer>12</answer>')).toBe(7);
    expect(countTokensFast('a\n\n  b')).toBe(3);
    expect(countTokensFast('CamelCase')).toBe(2);
    expect(countTokensFast('日本語')).toBe(3);
    expect(countMessageTokensFast([{ role: 'user', content: 'Hello world' }])).toBe(3 + 3 + 1 + 2);
  });

  // Measured ratio fast/tiktoken, aggregate per step kind: answer 1.01, critique 0.98, refine 1.00,
  // debate-turn 1.02, debate-final 1.03, search 0.96 (on GSM8K and HotpotQA block prompts 1.00-1.04).
  it('tracks o200k countTokens within 15% on block prompts of every step kind', () => {
    let exact = 0;
    let fast = 0;
    for (const messages of sampleBlockPrompts(20)) {
      const exactTokens = countMessageTokens(messages);
      const fastTokens = countMessageTokensFast(messages);
      exact += exactTokens;
      fast += fastTokens;
      expect(fastTokens / exactTokens).toBeGreaterThan(0.85);
      expect(fastTokens / exactTokens).toBeLessThan(1.15);
    }
    expect(fast / exact).toBeGreaterThan(0.95);
    expect(fast / exact).toBeLessThan(1.05);
  });
});
