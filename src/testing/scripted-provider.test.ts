import { describe, expect, it } from 'vitest';
import { SystemError } from '../core/errors.js';
import type { ChatRequest } from '../llm/chat-provider.js';
import { createFunctionProvider, createScriptedProvider } from './scripted-provider.js';

const request = (content: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  slot: 'worker',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content },
  ],
  ...extra,
});

describe('createScriptedProvider', () => {
  it('replies in order with strings, functions and errors, counting whitespace tokens', async () => {
    const provider = createScriptedProvider(['<answer>4</answer>', (req) => `echo ${req.messages.length}`, new Error('server down')]);
    const first = await provider.chat(request('what is two plus two'));
    expect(first).toEqual({
      text: '<answer>4</answer>',
      usage: { promptTokens: 7, completionTokens: 1, totalTokens: 8 },
      usageSource: 'counted',
      latencyMs: 0,
      model: 'scripted',
      attempts: 1,
      cached: false,
      finishReason: 'stop',
    });
    expect((await provider.chat(request('x', { model: 'm1' }))).model).toBe('m1');
    await expect(provider.chat(request('y'))).rejects.toThrow('server down');
    expect(provider.remaining).toBe(0);
    expect(provider.calls.map((call) => call.messages[1]?.content)).toEqual(['what is two plus two', 'x', 'y']);
    provider.assertAllUsed();
  });

  it('fails loudly on an extra call, even when the caller swallowed the error', async () => {
    const provider = createScriptedProvider(['only']);
    await provider.chat(request('a'));
    await expect(provider.chat(request('second question'))).rejects.toThrow(SystemError);
    expect(() => provider.assertAllUsed()).toThrow(/1 unexpected call\(s\): call 2 \(slot worker, last user message "second question"\)/);
  });

  it('reports unused steps', async () => {
    const provider = createScriptedProvider(['a', 'b', 'c']);
    await provider.chat(request('q'));
    expect(() => provider.assertAllUsed()).toThrow('scripted provider has 2 unused step(s) of 3');
  });

  it('honours an aborted signal without consuming a step', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    const provider = createScriptedProvider(['a']);
    await expect(provider.chat(request('q', { signal: controller.signal }))).rejects.toThrow('cancelled');
    expect(provider.remaining).toBe(1);
  });
});

describe('createFunctionProvider', () => {
  it('computes each reply from the request and records calls', async () => {
    const provider = createFunctionProvider(async (req) => `<answer>${req.sampleIndex ?? 0}</answer>`);
    const replies = await Promise.all([0, 1, 2].map((sampleIndex) => provider.chat(request('q', { sampleIndex }))));
    expect(replies.map((reply) => reply.text)).toEqual(['<answer>0</answer>', '<answer>1</answer>', '<answer>2</answer>']);
    expect(provider.calls).toHaveLength(3);
    expect(replies[0]?.usage).toEqual({ promptTokens: 3, completionTokens: 1, totalTokens: 4 });
    expect(replies[0]?.model).toBe('function');
  });
});
