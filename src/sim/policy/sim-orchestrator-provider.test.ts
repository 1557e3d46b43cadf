import { describe, expect, test } from 'vitest';
import { UserError } from '../../core/errors.js';
import type { ChatRequest } from '../../llm/chat-provider.js';
import { createLlmOrchestrator } from '../../orchestrator/index.js';
import { buildOrchestratorMessages, createBlockCatalog, parsePlan, planJsonSchema } from '../../plan/index.js';
import { ScenarioSchema } from '../scenario/scenario-schema.js';
import { baseCheckpoint, cloneCheckpoint } from './policy-checkpoint.js';
import { readOrchestratorPrompt } from '../../prompts/read-orchestrator-prompt.js';
import { createSimOrchestratorProvider } from './sim-orchestrator-provider.js';
import { FAKE_FAMILIES, SAMPLE_QUESTIONS, fakeAnswerDirectly } from './test-fixtures/fake-families.js';

const catalog = createBlockCatalog();
const scenario = ScenarioSchema.parse({
  name: 'policy-test',
  families: { arith: {} },
  orchestrator: { xmlShare: 0.5, malformedRate: { base: 0 }, defaultMalformedRate: 0 },
  tokens: { orchestratorReasoningTokens: 150 },
});
const checkpoints = new Map([
  ['base', baseCheckpoint()],
  ['trained', cloneCheckpoint(baseCheckpoint(), { name: 'trained', step: 12 })],
]);
const provider = createSimOrchestratorProvider({ scenario, families: FAKE_FAMILIES, checkpoints, answerDirectly: fakeAnswerDirectly });

const request = (question: string, seed: number, extra: Partial<ChatRequest> & { format?: 'json' | 'xml'; dom?: 'low' | 'high' | 'auto' } = {}): ChatRequest => {
  const { format = 'json', dom = 'auto', ...rest } = extra;
  return { messages: buildOrchestratorMessages(question, { catalog, format, dom }), slot: 'orchestrator', seed, ...rest };
};

describe('readOrchestratorPrompt', () => {
  test('reads back the question, format and DoM of buildOrchestratorMessages', () => {
    const question = 'First line of the task.\n\nA second paragraph: what is the number of apples?';
    expect(readOrchestratorPrompt(buildOrchestratorMessages(question, { catalog, format: 'xml', dom: 'low' }))).toEqual({ question, format: 'xml', dom: 'low' });
    expect(readOrchestratorPrompt(buildOrchestratorMessages(question, { catalog }))).toEqual({ question, format: 'json' });
    expect(readOrchestratorPrompt([{ role: 'user', content: '  Who founded Zentrix Labs? ' }])).toEqual({ question: 'Who founded Zentrix Labs?' });
  });
});

describe('createSimOrchestratorProvider', () => {
  test('serves one model per checkpoint and refuses others', async () => {
    expect(provider.models()).toEqual(['sim-orchestrator-base', 'sim-orchestrator-trained']);
    await expect(provider.chat(request(SAMPLE_QUESTIONS[0], 1, { model: 'gpt-4o' }))).rejects.toThrow(UserError);
    const response = await provider.chat(request(SAMPLE_QUESTIONS[0], 1, { model: 'sim-orchestrator-trained' }));
    expect(response.model).toBe('sim-orchestrator-trained');
    expect((await provider.chat(request(SAMPLE_QUESTIONS[0], 1))).model).toBe('sim-orchestrator-base');
  });

  test('the same request gives the same text; sampleIndex is ignored, the seed is not', async () => {
    const first = await provider.chat(request(SAMPLE_QUESTIONS[1], 5));
    expect((await provider.chat(request(SAMPLE_QUESTIONS[1], 5, { sampleIndex: 3 }))).text).toBe(first.text);
    const texts = new Set<string>();
    for (let seed = 0; seed < 30; seed++) texts.add((await provider.chat(request(SAMPLE_QUESTIONS[1], seed))).text);
    expect(texts.size).toBeGreaterThan(15);
  });

  test('writes XML when asked, JSON under structured output, and mixes formats otherwise', async () => {
    const formats = { asked: new Set<string>(), xml: new Set<string>(), schema: new Set<string>() };
    for (let seed = 0; seed < 40; seed++) {
      const question = SAMPLE_QUESTIONS[seed % SAMPLE_QUESTIONS.length] as string;
      const read = async (chatRequest: ChatRequest) => parsePlan((await provider.chat(chatRequest)).text);
      const plain = await read(request(question, seed));
      const xml = await read(request(question, seed, { format: 'xml' }));
      const schema = await read(request(question, seed, { responseFormat: { type: 'json_schema', name: 'plan', schema: planJsonSchema(catalog) } }));
      for (const [set, parsed] of [[formats.asked, plain], [formats.xml, xml], [formats.schema, schema]] as const) {
        expect(parsed.ok).toBe(true);
        set.add(parsed.format);
      }
    }
    expect([...formats.asked].sort()).toEqual(['json', 'xml']);
    expect([...formats.xml]).toEqual(['xml']);
    expect([...formats.schema]).toEqual(['json']);
  });

  test('respects a DoM the prompt imposes', async () => {
    for (let seed = 0; seed < 30; seed++) {
      const low = parsePlan((await provider.chat(request(SAMPLE_QUESTIONS[0], seed, { dom: 'low' }))).text, { dom: 'low' });
      expect(low.ok && low.plan.dom).toBe('low');
      const high = parsePlan((await provider.chat(request(SAMPLE_QUESTIONS[0], seed, { dom: 'high' }))).text);
      expect(high.ok && high.plan.dom).toBe('high');
    }
  });

  test('temperature 0 draws the greedy plan whatever the seed', async () => {
    const shapes = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      const parsed = parsePlan((await provider.chat(request(SAMPLE_QUESTIONS[3], seed, { temperature: 0 }))).text);
      if (parsed.ok) shapes.add(JSON.stringify([parsed.plan.dom, parsed.plan.nodes.map((node) => [node.agent, node.params])]));
    }
    // The base checkpoint's greedy plan: low DoM, one cot node at temperature 0.3 (first of equals).
    expect([...shapes]).toEqual([JSON.stringify(['low', [['cot', { temperature: 0.3 }]]])]);
  });

  test('reports usage with the hidden reasoning tokens', async () => {
    const response = await provider.chat(request(SAMPLE_QUESTIONS[2], 2));
    expect(response.usageSource).toBe('provider');
    expect(response.usage.promptTokens).toBeGreaterThan(100);
    expect(response.usage.completionTokens).toBeGreaterThan(150);
    expect(response.usage.totalTokens).toBe(response.usage.promptTokens + response.usage.completionTokens);
    expect(response).toMatchObject({ attempts: 1, cached: false, finishReason: 'stop' });
  });

  test('writes plans for the LLM orchestrator, like any chat model', async () => {
    const orchestrator = createLlmOrchestrator({ provider, catalog, model: 'sim-orchestrator-base' });
    const task = { id: 't1', suite: 'arith', question: SAMPLE_QUESTIONS[0], metadata: {} };
    const written = await orchestrator.writePlan(task, { sampleIndex: 0, seed: 17 });
    expect(parsePlan(written.text).ok).toBe(true);
    expect(written.call?.model).toBe('sim-orchestrator-base');
    expect((await orchestrator.writePlan(task, { sampleIndex: 1, seed: 17 })).text).toBe(written.text);
  });
});
