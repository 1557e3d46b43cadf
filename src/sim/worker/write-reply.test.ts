import { describe, expect, it } from 'vitest';
import { MAX_REASONING_LINES, shortenReasoning, writeAnswerReply } from './write-reply.js';

describe('writeAnswerReply', () => {
  it('writes reasoning lines then the answer tag, keeping long chains to their head and tail', () => {
    expect(writeAnswerReply(['One.', 'Two.'], '12')).toBe('One.\nTwo.\n<answer>12</answer>');
    const lines = Array.from({ length: 20 }, (_, index) => `Step ${index + 1}.`);
    const short = shortenReasoning(lines);
    expect(short).toHaveLength(MAX_REASONING_LINES);
    expect(short).toEqual(['Step 1.', 'Step 2.', 'Step 3.', '(13 more steps)', 'Step 17.', 'Step 18.', 'Step 19.', 'Step 20.']);
    expect(shortenReasoning(lines.slice(0, MAX_REASONING_LINES))).toEqual(lines.slice(0, MAX_REASONING_LINES));
  });
});
