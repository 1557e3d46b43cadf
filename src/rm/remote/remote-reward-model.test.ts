import { afterEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../core/plan.js';
import type { RewardModel } from '../../core/reward-model.js';
import { ConnectionError, MalformedResponseError, RequestTimeoutError, RetryError, ServerError } from '../../llm/index.js';
import { createOpenRlhfRewardModel } from './openrlhf-reward-model.js';
import { RemoteRewardOptionsSchema, type RemoteRewardRuntime } from './remote-options.js';
import { canonicalPlanText, defaultRewardPrompt } from './reward-prompt.js';
import {
  fixtureReward,
  openRlhfReply,
  startRewardServer,
  vllmClassifyReply,
  type RewardServer,
  type ServerAction,
} from './test-fixtures/reward-server.js';
import { createVllmClassifyRewardModel } from './vllm-classify-reward-model.js';

const TASK = 'What is 17 * 23?';
const TWO_NODES = JSON.stringify({
  dom: 'high',
  nodes: [
    { id: 'a', agent: 'cot', input: '' },
    { id: 'b', agent: 'reflexion', input: 'Check ${a}' },
  ],
  edges: [{ from: 'a', to: 'b' }],
  answer: 'b',
});
const ONE_NODE_PLAN: Plan = { dom: 'low', nodes: [{ id: 'solve', agent: 'sc', input: '', params: { samples: 3 } }], edges: [], answer: 'solve' };
const GARBAGE = 'I would just answer 391.';

/** Retries without waiting, so no test sleeps through a backoff. */
const noWait: RemoteRewardRuntime = { retry: { sleep: async () => undefined } };

interface ProtocolCase {
  name: string;
  path: string;
  reply: (body: unknown) => unknown;
  create: (url: string, extra?: { batchSize?: number; timeoutMs?: number; maxRetries?: number; planText?: 'raw' | 'canonical' }, runtime?: RemoteRewardRuntime) => RewardModel;
  /** The texts a request carried. */
  texts: (body: unknown) => string[];
}

const PROTOCOLS: ProtocolCase[] = [
  {
    name: 'vLLM /classify',
    path: '/classify',
    reply: vllmClassifyReply,
    create: (url, extra = {}, runtime = noWait) => createVllmClassifyRewardModel({ url, model: 'orchrm-rm', planText: 'canonical', ...extra }, runtime),
    texts: (body) => (body as { input: string[] }).input,
  },
  {
    name: 'OpenRLHF /get_reward',
    path: '/get_reward',
    reply: openRlhfReply,
    create: (url, extra = {}, runtime = noWait) => createOpenRlhfRewardModel({ url, planText: 'canonical', ...extra }, runtime),
    texts: (body) => (body as { query: string[] }).query,
  },
];

let server: RewardServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(respond: (body: unknown, attempt: number) => ServerAction): Promise<RewardServer> {
  server = await startRewardServer(respond);
  return server;
}

describe.each(PROTOCOLS)('$name adapter', (protocol) => {
  it('scores text plans, parsed plans and unparseable text, in order, through prompt + canonical plan', async () => {
    const { url, requests } = await serve((body) => ({ status: 200, body: protocol.reply(body) }));
    const model = protocol.create(url(protocol.path));
    const scores = await model.score(TASK, [TWO_NODES, ONE_NODE_PLAN, GARBAGE]);
    const texts = [TWO_NODES, ONE_NODE_PLAN, GARBAGE].map((plan) => defaultRewardPrompt(TASK) + canonicalPlanText(plan));
    expect(scores).toStrictEqual(texts.map(fixtureReward));
    expect(scores[0]).toBeGreaterThan(scores[1] as number);
    expect(scores[2]).toBe(-5);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.path).toBe(protocol.path);
    expect(protocol.texts(requests[0]?.body)).toStrictEqual(texts);
    expect(texts[2]).toBe('What is 17 * 23?INVALID PLAN: no_plan_found');
    expect(model.name).toBe(`${protocol.name.startsWith('vLLM') ? 'vllm-classify' : 'openrlhf'}(${url(protocol.path)})`);
  });

  it('sends plan text as written by default, as pairs export writes it', async () => {
    const { url, requests } = await serve((body) => ({ status: 200, body: protocol.reply(body) }));
    await protocol.create(url(protocol.path), { planText: 'raw' }).score(TASK, [TWO_NODES]);
    expect(protocol.texts(requests[0]?.body)).toStrictEqual([TASK + TWO_NODES]);
    expect(RemoteRewardOptionsSchema.parse({ url: url(protocol.path) }).planText).toBe('raw');
  });

  it('splits long lists into batches and keeps the order', async () => {
    const { url, requests } = await serve((body) => ({ status: 200, body: protocol.reply(body) }));
    const plans = [TWO_NODES, GARBAGE, ONE_NODE_PLAN, TWO_NODES, GARBAGE];
    const scores = await protocol.create(url(protocol.path), { batchSize: 2 }).score(TASK, plans);
    expect(requests.map((request) => protocol.texts(request.body).length)).toStrictEqual([2, 2, 1]);
    expect(scores).toStrictEqual(plans.map((plan) => fixtureReward(defaultRewardPrompt(TASK) + canonicalPlanText(plan))));
    expect(await protocol.create(url(protocol.path)).score(TASK, [])).toStrictEqual([]);
  });

  it('retries 5xx and a dropped connection, then succeeds', async () => {
    const { url, requests } = await serve((body, attempt) =>
      attempt === 1 ? { status: 503, body: { message: 'loading model' } } : attempt === 2 ? 'drop' : { status: 200, body: protocol.reply(body) },
    );
    const scores = await protocol.create(url(protocol.path)).score(TASK, [ONE_NODE_PLAN]);
    expect(scores).toHaveLength(1);
    expect(requests).toHaveLength(3);
  });

  it('gives up after maxRetries with every attempt kept', async () => {
    const { url, requests } = await serve(() => ({ status: 500, body: { error: 'CUDA out of memory' } }));
    const error = await protocol.create(url(protocol.path), { maxRetries: 1 }).score(TASK, [ONE_NODE_PLAN]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RetryError);
    expect((error as RetryError).attempts).toBe(2);
    expect((error as RetryError).lastError).toBeInstanceOf(ServerError);
    expect((error as Error).message).toMatch(/answered 500: server error \(CUDA out of memory\)/);
    expect(requests).toHaveLength(2);
  });

  it('does not retry a 4xx and names the server', async () => {
    const { url, requests } = await serve(() => ({ status: 404, body: { detail: 'Not Found' } }));
    const error = await protocol.create(url(protocol.path)).score(TASK, [ONE_NODE_PLAN]).catch((caught: unknown) => caught);
    expect((error as RetryError).reason).toBe('errorNotRetryable');
    expect((error as Error).message).toContain(`${url(protocol.path)} answered 404`);
    expect(requests).toHaveLength(1);
  });

  it('refuses a reply of the wrong shape at once, and retries a body that is not JSON', async () => {
    const wrong = await serve(() => ({ status: 200, body: { result: [1] } }));
    const shapeError = await protocol.create(wrong.url(protocol.path)).score(TASK, [ONE_NODE_PLAN]).catch((caught: unknown) => caught);
    expect((shapeError as RetryError).lastError).toBeInstanceOf(MalformedResponseError);
    expect((shapeError as Error).message).toMatch(/unexpected body \((data|rewards): /);
    expect(wrong.requests).toHaveLength(1);
    await wrong.close();

    const notJson = await serve(() => ({ status: 200, rawBody: '<html>proxy error</html>' }));
    const jsonError = await protocol.create(notJson.url(protocol.path)).score(TASK, [ONE_NODE_PLAN]).catch((caught: unknown) => caught);
    expect((jsonError as Error).message).toMatch(/not JSON \(<html>proxy error<\/html>\)/);
    expect(notJson.requests).toHaveLength(3);
  });

  it('refuses a reply with the wrong number of scores', async () => {
    const { url } = await serve((body) => {
      const reply = protocol.reply(body) as { data?: unknown[]; rewards?: unknown[] };
      return { status: 200, body: reply.data ? { ...reply, data: reply.data.slice(1) } : { rewards: reply.rewards?.slice(1) } };
    });
    const error = await protocol.create(url(protocol.path)).score(TASK, [ONE_NODE_PLAN, TWO_NODES]).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/returned 1 (results|rewards) for 2/);
  });

  it('times out a stalled server and reports a refused connection', async () => {
    const { url } = await serve(() => 'hang');
    const error = await protocol.create(url(protocol.path), { timeoutMs: 100, maxRetries: 0 }).score(TASK, [ONE_NODE_PLAN]).catch((caught: unknown) => caught);
    expect((error as RetryError).lastError).toBeInstanceOf(RequestTimeoutError);
    expect((error as Error).message).toMatch(/did not answer within 100 ms/);

    const closed = await startRewardServer(() => 'hang');
    const closedUrl = closed.url(protocol.path);
    await closed.close();
    const refused = await protocol.create(closedUrl, { maxRetries: 0 }).score(TASK, [ONE_NODE_PLAN]).catch((caught: unknown) => caught);
    expect((refused as RetryError).lastError).toBeInstanceOf(ConnectionError);
    expect((refused as Error).message).toMatch(/could not reach .*check that the reward server is running/);
  });

  it('sends the key from the environment as a bearer token, and stops on abort', async () => {
    const { url, requests } = await serve((body) => ({ status: 200, body: protocol.reply(body) }));
    await protocol.create(url(protocol.path), {}, { env: { ORCHRM_REWARD_API_KEY: 'secret-1' } }).score(TASK, [ONE_NODE_PLAN]);
    expect(requests[0]?.headers.authorization).toBe('Bearer secret-1');
    await protocol.create(url(protocol.path), {}, { env: {} }).score(TASK, [ONE_NODE_PLAN]);
    expect(requests[1]?.headers.authorization).toBeUndefined();

    const controller = new AbortController();
    controller.abort(new Error('caller gave up'));
    await expect(protocol.create(url(protocol.path)).score(TASK, [ONE_NODE_PLAN], { signal: controller.signal })).rejects.toThrow('caller gave up');
  });

  it('refuses bad options with the field named', () => {
    expect(() => protocol.create('not a url')).toThrow(/url: url must be an absolute http\(s\) URL/);
    expect(() => protocol.create('http://127.0.0.1:1/x', { batchSize: 0 })).toThrow(/batchSize/);
  });
});

describe('vLLM /classify specifics', () => {
  it('asks for raw logits and puts results back by index', async () => {
    const { url, requests } = await serve((body) => {
      const reply = vllmClassifyReply(body) as { data: unknown[] };
      return { status: 200, body: { ...reply, data: reply.data.slice().reverse() } };
    });
    const scores = await createVllmClassifyRewardModel({ url: url('/classify'), model: 'orchrm-rm', planText: 'canonical' }, noWait).score(TASK, [TWO_NODES, GARBAGE]);
    expect(scores[0]).toBeGreaterThan(1);
    expect(scores[1]).toBe(-5);
    expect(requests[0]?.body).toMatchObject({ model: 'orchrm-rm', use_activation: false });
  });

  it('sends raw plan text when asked, with a custom prompt template', async () => {
    const { url, requests } = await serve((body) => ({ status: 200, body: vllmClassifyReply(body) }));
    const runtime: RemoteRewardRuntime = { ...noWait, formatPrompt: (task) => `Task: ${task}\nPlan: ` };
    await createVllmClassifyRewardModel({ url: url('/classify'), model: 'm', planText: 'raw' }, runtime).score(TASK, [GARBAGE, ONE_NODE_PLAN]);
    expect((requests[0]?.body as { input: string[] }).input).toStrictEqual([
      `Task: ${TASK}\nPlan: ${GARBAGE}`,
      `Task: ${TASK}\nPlan: ${canonicalPlanText(ONE_NODE_PLAN)}`,
    ]);
  });

  it('needs classIndex for a head with several outputs', async () => {
    const { url } = await serve((body) => ({
      status: 200,
      body: { data: (body as { input: string[] }).input.map((_, index) => ({ index, probs: [0.25, 0.75], num_classes: 2 })) },
    }));
    const error = await createVllmClassifyRewardModel({ url: url('/classify'), model: 'nli' }, noWait).score(TASK, [GARBAGE]).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/model nli has 2 outputs, not the single reward of a Bradley-Terry head; pass classIndex/);
    expect(await createVllmClassifyRewardModel({ url: url('/classify'), model: 'nli', classIndex: 1 }, noWait).score(TASK, [GARBAGE])).toStrictEqual([0.75]);
  });

});

describe('OpenRLHF /get_reward specifics', () => {
  it('lays queries out as train_rm did when given the export layout (serve_rm scores the query as sent)', async () => {
    const { url, requests } = await serve((body) => ({ status: 200, body: openRlhfReply(body) }));
    const layout = {
      kind: 'orchrm-pair-export-layout',
      version: 1,
      format: 'openrlhf',
      form: 'text',
      planText: 'raw',
      keys: { prompt: 'prompt', chosen: 'chosen', rejected: 'rejected', margin: null },
      rows: 1,
      sources: {},
      scoring: { input: 'text', stripTrailingNewlines: true, eos: 'append-after-space', eosToken: '</s>', addSpecialTokens: false },
    } as const;
    await createOpenRlhfRewardModel({ url: url('/get_reward'), layout }, noWait).score(TASK, [`${GARBAGE}\n\n`]);
    expect(requests[0]?.body).toStrictEqual({ query: [`${TASK}${GARBAGE} </s>`], prompts: [TASK], labels: [''] });
    expect(() => createOpenRlhfRewardModel({ url: url('/get_reward'), layout: { ...layout, form: 'messages', scoring: { ...layout.scoring, input: 'chat' } } })).toThrow(/pass chatTemplate/);
  });

  it('sends the OpenRLHF fields with empty labels', async () => {
    const { url, requests } = await serve((body) => ({ status: 200, body: openRlhfReply(body) }));
    await createOpenRlhfRewardModel({ url: url('/get_reward'), planText: 'canonical' }, noWait).score(TASK, [GARBAGE]);
    expect(requests[0]?.body).toStrictEqual({
      query: ['What is 17 * 23?INVALID PLAN: no_plan_found'],
      prompts: ['What is 17 * 23?'],
      labels: [''],
    });
  });
});
