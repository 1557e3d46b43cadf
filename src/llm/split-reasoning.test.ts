import { describe, expect, it } from 'vitest';
import { joinReasoning, splitReasoning } from './split-reasoning.js';

describe('splitReasoning', () => {
  it('takes a leading <think> block out of the content', () => {
    expect(splitReasoning('<think>\n2 + 2 is 4.\n</think>\n\nAnswer: 4')).toEqual({ text: 'Answer: 4', reasoning: '2 + 2 is 4.' });
    expect(splitReasoning('  <think>a</think><think>b</think>{"nodes": []}')).toEqual({ text: '{"nodes": []}', reasoning: 'a\n\nb' });
  });

  it('ends the reasoning at a closing tag whose opening tag was in the prompt (Qwen3, DeepSeek-R1 templates)', () => {
    expect(splitReasoning('Let me see. 6 * 7 = 42.\n</think>\n\nAnswer: 42')).toEqual({ text: 'Answer: 42', reasoning: 'Let me see. 6 * 7 = 42.' });
  });

  it('makes an unclosed <think> all reasoning, so no answer is read from it', () => {
    expect(splitReasoning('<think>First the eggs, then the')).toEqual({ text: '', reasoning: 'First the eggs, then the' });
  });

  it('leaves content without reasoning, and MAS-Orchestra <thinking>, untouched', () => {
    const plan = '<thinking>two steps</thinking>\n<agent><agent_id>A</agent_id></agent>';
    expect(splitReasoning(plan)).toEqual({ text: plan });
    expect(splitReasoning('Answer: 4')).toEqual({ text: 'Answer: 4' });
    // A <think> that is not at the start is part of the answer (a model quoting the tag).
    expect(splitReasoning('Use <think></think> tags.')).toEqual({ text: 'Use <think></think> tags.' });
    expect(splitReasoning('<think></think>Answer: 4')).toEqual({ text: 'Answer: 4' });
  });

  it('joins reasoning from a field and from the content', () => {
    expect(joinReasoning('from the field', undefined, ' ')).toBe('from the field');
    expect(joinReasoning('a', 'b')).toBe('a\n\nb');
    expect(joinReasoning(null, '')).toBeUndefined();
  });
});
