import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../core/errors.js';
import type { ChatProvider, ChatRequest } from '../../llm/chat-provider.js';
import { createOpenAiProvider } from '../../llm/openai-provider.js';
import { hashedEmbedding } from './hashed-embedding.js';
import { startOpenAiCompatibleServer, type OpenAiCompatibleServer } from './start-openai-compatible-server.js';

const MODELS = ['sim-orchestrator-base', 'sim-worker', 'sim-judge'];

/** Answers with what it was asked, and bills hidden tokens the text does not show (as the simulation does). */
function recordingProvider(): ChatProvider & { calls: ChatRequest[] } {
  const calls: ChatRequest[] = [];
  return {
    name: 'recording',
    calls,
    async chat(request) {
      calls.push(request);
      const last = request.messages.at(-1)?.content ?? '';
      return {
        text: `${request.slot}:${request.model}:${last}`,
        usage: { promptTokens: 100 + last.length, completionTokens: 350, totalTokens: 450 + last.length },
        usageSource: 'provider',
        latencyMs: 0,
        model: request.model ?? 'unknown',
        attempts: 1,
        cached: false,
        finishReason: 'stop',
      };
    },
  };
}

let server: OpenAiCompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup() {
  const provider = recordingProvider();
  server = await startOpenAiCompatibleServer({ provider, models: MODELS });
  const client = new OpenAI({ baseURL: server.url, apiKey: 'unused', maxRetries: 0 });
  return { server, provider, client };
}

describe('startOpenAiCompatibleServer through the openai client', () => {
  it('listens on loopback on an ephemeral port', async () => {
    const { server } = await setup();
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/v1`);
    const taken = startOpenAiCompatibleServer({ provider: recordingProvider(), models: MODELS, port: server.port });
    await expect(taken).rejects.toThrow(UserError);
    await expect(taken).rejects.toThrow(`127.0.0.1:${server.port} is already in use; choose another port`);
  });

  it('answers chat completions with the provider text and usage, routing models to slots', async () => {
    const { client, provider } = await setup();
    const completion = await client.chat.completions.create({
      model: 'sim-orchestrator-base',
      messages: [
        { role: 'system', content: 'You write plans.' },
        { role: 'user', content: 'Plan for: 2+2' },
      ],
      temperature: 0.7,
      max_completion_tokens: 300,
      seed: 42,
      stop: 'END',
      response_format: { type: 'json_schema', json_schema: { name: 'plan', schema: { type: 'object' } } },
    });
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: 'sim-orchestrator-base',
      choices: [{ index: 0, message: { role: 'assistant', content: 'orchestrator:sim-orchestrator-base:Plan for: 2+2' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 113, completion_tokens: 350, total_tokens: 463 },
    });
    expect(provider.calls[0]).toMatchObject({
      slot: 'orchestrator',
      model: 'sim-orchestrator-base',
      messages: [
        { role: 'system', content: 'You write plans.' },
        { role: 'user', content: 'Plan for: 2+2' },
      ],
      temperature: 0.7,
      maxTokens: 300,
      seed: 42,
      stop: ['END'],
      responseFormat: { type: 'json_schema', name: 'plan', schema: { type: 'object' } },
    });

    await client.chat.completions.create({ model: 'sim-judge', messages: [{ role: 'user', content: 'ok?' }], max_tokens: 5 });
    await client.chat.completions.create({ model: 'sim-worker', messages: [{ role: 'user', content: 'go' }] });
    expect(provider.calls.slice(1).map((call) => [call.slot, call.maxTokens])).toStrictEqual([
      ['judge', 5],
      ['worker', undefined],
    ]);
  });

  it('gives byte-identical bodies for the same request sequence', async () => {
    const bodies: string[] = [];
    for (let run = 0; run < 2; run++) {
      const { server } = await setup();
      const response = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'sim-worker', messages: [{ role: 'user', content: 'same' }] }),
      });
      bodies.push(await response.text());
      await server.close();
    }
    expect(bodies[1]).toBe(bodies[0]);
  });

  it('lists and retrieves the served models and the embedding model', async () => {
    const { client } = await setup();
    const listed = [];
    for await (const model of client.models.list()) listed.push(model.id);
    expect(listed).toStrictEqual([...MODELS, 'sim-embedding']);
    expect(await client.models.retrieve('sim-worker')).toMatchObject({ id: 'sim-worker', object: 'model' });
    await expect(client.models.retrieve('gpt-4o')).rejects.toMatchObject({ status: 404 });
  });

  it('embeds deterministically, L2-normalised, in base64 (the client default) and float', async () => {
    const { client } = await setup();
    const texts = ['Ada Lovelace was born in London.', 'Seven apples cost nine dollars.'];
    const base64 = await client.embeddings.create({ model: 'sim-embedding', input: texts });
    const floats = await client.embeddings.create({ model: 'sim-embedding', input: texts, encoding_format: 'float' });
    expect(base64.data.map((item) => item.index)).toStrictEqual([0, 1]);
    expect(base64.usage.prompt_tokens).toBeGreaterThan(10);
    expect(base64.usage.total_tokens).toBe(base64.usage.prompt_tokens);
    for (const [index, text] of texts.entries()) {
      const embedding = base64.data[index]?.embedding ?? [];
      expect(embedding).toHaveLength(256);
      expect(floats.data[index]?.embedding).toStrictEqual(embedding);
      expect(embedding).toStrictEqual(Array.from(hashedEmbedding(text)));
      expect(Math.abs(Math.hypot(...embedding) - 1)).toBeLessThan(1e-6);
    }
    const again = await client.embeddings.create({ model: 'sim-embedding', input: texts[0] ?? '', dimensions: 64 });
    expect(again.data[0]?.embedding).toHaveLength(64);
    expect(again.data[0]?.embedding).toStrictEqual(Array.from(hashedEmbedding(texts[0] ?? '', 64)));
  });

  it('rejects an unknown model as OpenAI does (404 model_not_found)', async () => {
    const { client, provider } = await setup();
    const error = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    expect(String((error as Error).message)).toContain('sim-orchestrator-base, sim-worker, sim-judge');
    await expect(client.embeddings.create({ model: 'sim-worker', input: 'x' })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    expect(provider.calls).toHaveLength(0);
  });
});

describe('startOpenAiCompatibleServer through createOpenAiProvider', () => {
  it('serves orchrm provider calls with provider-reported usage', async () => {
    const { server, provider } = await setup();
    const client = createOpenAiProvider(
      { baseURL: server.url, models: { orchestrator: 'sim-orchestrator-base', worker: 'sim-worker', judge: 'sim-judge' } },
      { env: {} },
    );
    const response = await client.chat({ slot: 'worker', messages: [{ role: 'user', content: 'What is 6 times 7?' }], temperature: 0, seed: 3 });
    expect(response).toMatchObject({
      text: 'worker:sim-worker:What is 6 times 7?',
      usage: { promptTokens: 118, completionTokens: 350, totalTokens: 468 },
      usageSource: 'provider',
      model: 'sim-worker',
      attempts: 1,
      finishReason: 'stop',
    });
    const plan = await client.chat({ slot: 'orchestrator', messages: [{ role: 'user', content: 'plan' }] });
    expect(plan.text).toBe('orchestrator:sim-orchestrator-base:plan');
    expect(provider.calls.map((call) => call.seed)).toStrictEqual([3, undefined]);
    expect(server.stats.requests).toStrictEqual({ chatCompletions: 2, embeddings: 0, models: 0 });
  });
});
