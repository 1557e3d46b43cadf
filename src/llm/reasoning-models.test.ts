import { afterEach, describe, expect, it } from 'vitest';
import { openAiReasoningModel, startChatServer, type ChatServer, type ChatServerHandler } from '../testing/chat-server.js';
import type { ChatRequest } from './chat-provider.js';
import { createOpenAiProvider } from './openai-provider.js';

const models = { orchestrator: 'gpt-5-mini', worker: 'gpt-5-mini', judge: 'o4-mini' };
const request: ChatRequest = { slot: 'worker', messages: [{ role: 'user', content: 'What is 6 times 7?' }], temperature: 0, maxTokens: 256, stop: ['\n\n'], seed: 3 };

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(handler: ChatServerHandler) {
  server = await startChatServer({ handler, models: ['gpt-5-mini', 'o4-mini'] });
  const warnings: string[] = [];
  const provider = createOpenAiProvider({ baseURL: server.url, models }, { env: {}, events: (event) => warnings.push(event.message), retry: { sleep: async () => {} } });
  return { server, provider, warnings };
}

describe('OpenAI reasoning models (gpt-5, o-series)', () => {
  it('learns what the model refuses, sends what it accepts, and remembers it per model', async () => {
    const { server, provider, warnings } = await setup(openAiReasoningModel(() => ({ text: 'Answer: 42' })));
    const first = await provider.chat(request);
    expect(first.text).toBe('Answer: 42');
    // max_tokens, then temperature 0, then stop were refused, one 400 each, before the answer.
    expect(first.attempts).toBe(4);
    expect(first.attemptErrors).toHaveLength(3);
    expect(first.attemptErrors?.[0]).toMatch(/^BadRequestError: .* answered 400: the request was rejected \(Unsupported parameter: 'max_tokens'/);
    const sent = server.requests.at(-1)!;
    expect(sent).toMatchObject({ model: 'gpt-5-mini', max_completion_tokens: 256, seed: 3 });
    expect(sent).not.toHaveProperty('max_tokens');
    expect(sent).not.toHaveProperty('temperature');
    expect(sent).not.toHaveProperty('stop');
    expect(warnings).toEqual([
      expect.stringMatching(/^model gpt-5-mini refused "max_tokens" .*sending "max_completion_tokens" to it from now on$/),
      expect.stringMatching(/^model gpt-5-mini refused "temperature" .*does not support 0 with this model.*leaving it out/),
      expect.stringMatching(/^model gpt-5-mini refused "stop"/),
    ]);

    // Remembered: the next call to the same model is sent right the first time.
    const before = server.requests.length;
    const second = await provider.chat({ ...request, messages: [{ role: 'user', content: 'And 6 times 8?' }] });
    expect(second.attempts).toBe(1);
    expect(server.requests.length - before).toBe(1);
    // The judge's model learns on its own.
    const judged = await provider.chat({ ...request, slot: 'judge' });
    expect(judged.attempts).toBe(4);
    expect(warnings).toHaveLength(6);
  });

  it('adapts requests in flight at once, warning once per parameter', async () => {
    const { provider, warnings } = await setup(openAiReasoningModel(() => ({ text: 'ok', delayMs: 5 })));
    const responses = await Promise.all(Array.from({ length: 12 }, (_, sampleIndex) => provider.chat({ ...request, sampleIndex })));
    expect(responses.map((response) => response.text)).toEqual(Array(12).fill('ok'));
    expect(warnings).toHaveLength(3);
  });

  it('keeps a refusal it cannot read as an error, after one attempt', async () => {
    const refuse: ChatServerHandler = () => ({ status: 400, body: { error: { message: "Unsupported parameter: 'top_p'", type: 'invalid_request_error', param: 'top_p', code: 'unsupported_parameter' } } });
    const { server, provider, warnings } = await setup(refuse);
    await expect(provider.chat(request)).rejects.toThrow(/failed with an error that is not retried: .*answered 400: .*top_p/);
    expect(server.requests).toHaveLength(1);
    expect(warnings).toEqual([]);
  });
});

describe('reasoning output', () => {
  it('keeps a reasoning_content or reasoning field apart from the text', async () => {
    const replies = [
      { text: 'Answer: 42', reasoningContent: '6 * 7 = 42' },
      { text: 'Answer: 42', reasoning: 'six sevens' },
    ];
    const { provider } = await setup((_body, index) => replies[index]!);
    expect(await provider.chat(request)).toMatchObject({ text: 'Answer: 42', reasoning: '6 * 7 = 42' });
    expect(await provider.chat({ ...request, sampleIndex: 1 })).toMatchObject({ text: 'Answer: 42', reasoning: 'six sevens' });
  });

  it('takes <think> out of the content, and counts its tokens when the server reports no usage', async () => {
    const { provider } = await setup(() => ({ text: '<think>\nseven sixes are forty-two\n</think>\n\nAnswer: 42', usage: null }));
    const response = await provider.chat(request);
    expect(response).toMatchObject({ text: 'Answer: 42', reasoning: 'seven sixes are forty-two', usageSource: 'counted' });
    expect(response.usage.completionTokens).toBeGreaterThan(5);
  });

  it('returns no reasoning when there is none', async () => {
    const { provider } = await setup(() => ({ text: 'Answer: 42' }));
    expect(await provider.chat(request)).not.toHaveProperty('reasoning');
  });
});
