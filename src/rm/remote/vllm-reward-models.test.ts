import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scoringLayout, type PairExportLayout } from '../../pairs/index.js';
import { fixtureTemplate, fixtureTemplatePath } from '../../serve/test-fixtures/render-chat.js';
import { compareVersions } from './check-vllm-version.js';
import type { RemoteRewardRuntime } from './remote-options.js';
import { fixtureReward, startRewardServer, vllmClassifyReply, vllmPoolingReply, type RewardServer, type ServerAction } from './test-fixtures/reward-server.js';
import { createVllmClassifyRewardModel } from './vllm-classify-reward-model.js';
import { createVllmPoolingRewardModel } from './vllm-pooling-reward-model.js';

const TASK = 'What is 17 * 23?';
const PLAN = '<agent>\n<agent_id>A</agent_id>\n<agent_name>cot</agent_name>\n</agent>\n';
const noWait: RemoteRewardRuntime = { retry: { sleep: async () => undefined } };

let server: RewardServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(respond: (body: unknown, attempt: number) => ServerAction, version: string | null = '0.13.0'): Promise<RewardServer> {
  server = await startRewardServer(respond, { version });
  return server;
}

function layoutOf(format: 'trl' | 'openrlhf', form: 'text' | 'messages', eosToken?: string): PairExportLayout {
  return {
    kind: 'orchrm-pair-export-layout',
    version: 1,
    format,
    form,
    planText: 'raw',
    keys: { prompt: form === 'text' || format === 'trl' ? 'prompt' : null, chosen: 'chosen', rejected: 'rejected', margin: null },
    rows: 1,
    sources: { outcome: 1 },
    scoring: scoringLayout(format, form, eosToken),
  };
}

describe('vLLM /classify: version floor (use_activation exists since 0.11.1)', () => {
  it.each([
    ['0.13.0', 'new'],
    ['0.11.1', 'new'],
  ] as const)('reads raw logits from vLLM %s', async (version, behaviour) => {
    const { url, requests } = await serve((body) => ({ status: 200, body: vllmClassifyReply(body, behaviour) }), version);
    const scores = await createVllmClassifyRewardModel({ url: url('/classify'), model: 'rm' }, noWait).score(TASK, [PLAN, 'x']);
    expect(scores).toStrictEqual([fixtureReward(TASK + PLAN), fixtureReward(`${TASK}x`)]);
    expect(requests[0]?.body).toMatchObject({ use_activation: false });
  });

  it.each([
    ['0.11.0', 'activation'],
    ['0.10.2', 'activation'],
    ['0.9.2', 'softmax'],
  ] as const)('refuses vLLM %s before sending a plan', async (version, behaviour) => {
    const { url, requests } = await serve((body) => ({ status: 200, body: vllmClassifyReply(body, behaviour) }), version);
    const model = createVllmClassifyRewardModel({ url: url('/classify'), model: 'rm' }, noWait);
    await expect(model.score(TASK, [PLAN])).rejects.toThrow(new RegExp(`version ${version.replaceAll('.', '\\.')}, older than 0\\.11\\.1: it ignores "use_activation": false`));
    await expect(model.score(TASK, [PLAN])).rejects.toThrow(/older than 0\.11\.1/);
    expect(requests).toHaveLength(0);
  });

  it.each([
    ['0.10-0.11.0 (sigmoid)', 'activation', /\(0\.\d+\) with "use_activation": true and false: it ignores the field/],
    ['before 0.10 (one-label softmax)', 'softmax', /returns the same output \(1\) with "use_activation": true and false/],
  ] as const)('without a /version route, refuses a vLLM %s server, whose outputs do not change with use_activation (issue 24)', async (_name, behaviour, message) => {
    const old = await serve((body) => ({ status: 200, body: vllmClassifyReply(body, behaviour) }), null);
    const model = createVllmClassifyRewardModel({ url: old.url('/classify'), model: 'rm' }, noWait);
    await expect(model.score(TASK, [PLAN, 'x'])).rejects.toThrow(message);
    await expect(model.score(TASK, [PLAN, 'x'])).rejects.toThrow(/names no vLLM version \(http:\/\/127\.0\.0\.1:\d+\/version answered 404\)/);
    // Only the two probes were sent, no plan.
    expect(old.requests.map((request) => (request.body as { use_activation: boolean }).use_activation)).toEqual([true, false]);
  });

  it('without a /version route, accepts raw logits from a server that honours use_activation, and still refuses an all-1.0 reply', async () => {
    const current = await serve((body) => ({ status: 200, body: vllmClassifyReply(body, 'new') }), null);
    expect(await createVllmClassifyRewardModel({ url: current.url('/classify'), model: 'rm' }, noWait).score(TASK, [PLAN])).toStrictEqual([fixtureReward(TASK + PLAN)]);
    await current.close();
    // A server whose probe fails (here: only plan requests get an answer) is judged by its replies.
    const ones = await serve((body) => ((body as { input: string[] }).input[0]!.startsWith('orchrm') ? { status: 500, body: {} } : { status: 200, body: vllmClassifyReply(body, 'softmax') }), null);
    await expect(createVllmClassifyRewardModel({ url: ones.url('/classify'), model: 'rm', maxRetries: 0 }, noWait).score(TASK, [PLAN, 'x'])).rejects.toThrow(/returned exactly 1\.0 for every input/);
  });

  it('/pooling without a /version route: refuses a server that ignores use_activation', async () => {
    const old = await serve((body) => ({ status: 200, body: vllmPoolingReply(body) }), null);
    await expect(createVllmPoolingRewardModel({ url: old.url('/pooling'), model: 'rm' }, noWait).score(TASK, [PLAN])).rejects.toThrow(/with "use_activation": true and false: it ignores the field/);
  });

  it('compares release numbers by their first three parts', () => {
    expect([compareVersions('0.11.1rc2.dev5', '0.11.1'), compareVersions('0.9.10', '0.11.1'), compareVersions('1.0', '0.11.1'), compareVersions('v0.11.0', '0.11.1')]).toEqual([0, -1, 1, -1]);
  });
});

describe('vLLM /classify: the export layout', () => {
  it('TRL text rows: prompt + plan + the EOS token TRL appends, with the tokenizer\'s special tokens', async () => {
    const { url, requests } = await serve((body) => ({ status: 200, body: vllmClassifyReply(body) }));
    await createVllmClassifyRewardModel({ url: url('/classify'), model: 'rm', layout: layoutOf('trl', 'text', '<|endoftext|>') }, noWait).score(TASK, [PLAN, 'ends<|endoftext|>']);
    expect(requests[0]?.body).toStrictEqual({ model: 'rm', input: [`${TASK}${PLAN}<|endoftext|>`, `${TASK}ends<|endoftext|>`], use_activation: false, add_special_tokens: true });
  });

  it('OpenRLHF text rows: trailing newlines stripped, then a space and the EOS token, no special tokens', async () => {
    const { url, requests } = await serve((body) => ({ status: 200, body: vllmClassifyReply(body) }));
    await createVllmClassifyRewardModel({ url: url('/classify'), model: 'rm', layout: layoutOf('openrlhf', 'text'), eosToken: '</s>' }, noWait).score(TASK, [PLAN]);
    expect(requests[0]?.body).toStrictEqual({ model: 'rm', input: [`${TASK}${PLAN.trimEnd()} </s>`], use_activation: false, add_special_tokens: false });
  });

  it('TRL messages rows: one chat request per plan, for the server to apply the model\'s template', async () => {
    const { url, requests } = await serve((body) => ({ status: 200, body: vllmClassifyReply(body) }));
    const scores = await createVllmClassifyRewardModel({ url: url('/classify'), model: 'rm', layout: layoutOf('trl', 'messages') }, noWait).score(TASK, [PLAN, 'x']);
    expect(requests.map((request) => request.body)).toStrictEqual(
      [PLAN, 'x'].map((plan) => ({ model: 'rm', messages: [{ role: 'user', content: TASK }, { role: 'assistant', content: plan }], use_activation: false, add_special_tokens: false })),
    );
    expect(scores).toStrictEqual([fixtureReward(TASK + PLAN), fixtureReward(`${TASK}x`)]);
  });

  it('OpenRLHF messages rows: rendered here with chatTemplate, and refused without one', async () => {
    const { url, requests } = await serve((body) => ({ status: 200, body: vllmClassifyReply(body) }));
    expect(() => createVllmClassifyRewardModel({ url: url('/classify'), model: 'rm', layout: layoutOf('openrlhf', 'messages', '<|im_end|>') })).toThrow(/pass chatTemplate/);
    await createVllmClassifyRewardModel({ url: url('/classify'), model: 'rm', layout: layoutOf('openrlhf', 'messages', '<|im_end|>'), chatTemplate: fixtureTemplatePath('qwen2.5-instruct') }, noWait).score(TASK, [PLAN]);
    // Qwen2.5's own template, default system prompt and all; trailing newline stripped, EOS already there.
    expect((requests[0]?.body as { input: string[] }).input).toStrictEqual([
      `<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n<|im_start|>user\n${TASK}<|im_end|>\n<|im_start|>assistant\n${PLAN}<|im_end|>`,
    ]);
  });

  it('reads the layout file back, and refuses one that needs an EOS token nobody named, or a contradicting planText', () => {
    const directory = mkdtempSync(join(tmpdir(), 'orchrm-layout-'));
    try {
      const path = join(directory, 'train.jsonl.orchrm-layout');
      writeFileSync(path, JSON.stringify(layoutOf('trl', 'text')));
      expect(() => createVllmClassifyRewardModel({ url: 'http://127.0.0.1:1/classify', model: 'rm', layout: path })).toThrow(/pass eosToken \(the trained model's tokenizer\.eos_token/);
      expect(() => createVllmClassifyRewardModel({ url: 'http://127.0.0.1:1/classify', model: 'rm', layout: path, eosToken: '</s>', planText: 'canonical' })).toThrow(/planText "canonical" contradicts the export layout/);
      writeFileSync(path, '{"kind": "something else"}');
      expect(() => createVllmClassifyRewardModel({ url: 'http://127.0.0.1:1/classify', model: 'rm', layout: path })).toThrow(/the export layout .* is invalid/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('vLLM /pooling (token-level reward models)', () => {
  it('sends the conversation for the model\'s own chat template and reads the last token\'s reward', async () => {
    const { url, requests } = await serve((body) => ({ status: 200, body: vllmPoolingReply(body) }));
    const model = createVllmPoolingRewardModel({ url: url('/pooling'), model: 'Qwen/Qwen2.5-Math-RM-72B', systemPrompt: 'Please reason step by step.' }, noWait);
    const scores = await model.score(TASK, [PLAN, 'x']);
    const conversation = (plan: string) => [
      { role: 'system', content: 'Please reason step by step.' },
      { role: 'user', content: TASK },
      { role: 'assistant', content: plan },
    ];
    expect(requests.map((request) => request.body)).toStrictEqual([PLAN, 'x'].map((plan) => ({ model: 'Qwen/Qwen2.5-Math-RM-72B', use_activation: false, messages: conversation(plan), add_special_tokens: false })));
    const chatml = (plan: string) => conversation(plan).map((message) => `<|im_start|>${message.role}\n${message.content}<|im_end|>\n`).join('');
    expect(scores).toStrictEqual([fixtureReward(chatml(PLAN)), fixtureReward(chatml('x'))]);
  });

  it('renders the template here when asked, in one batch, and reads another token or output when told', async () => {
    const { url, requests } = await serve((body) => ({ status: 200, body: vllmPoolingReply(body) }));
    const last = await createVllmPoolingRewardModel({ url: url('/pooling'), model: 'rm', template: fixtureTemplate('qwen3'), task: 'token_classify' }, noWait).score(TASK, [PLAN, 'x']);
    // Qwen3's own template: no system prompt, an empty think block before the last answer.
    const texts = [PLAN, 'x'].map((plan) => `<|im_start|>user\n${TASK}<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n${plan}<|im_end|>\n`);
    expect(requests[0]?.body).toStrictEqual({ model: 'rm', use_activation: false, task: 'token_classify', input: texts, add_special_tokens: false });
    expect(last).toStrictEqual(texts.map(fixtureReward));
    const earlier = await createVllmPoolingRewardModel({ url: url('/pooling'), model: 'rm', template: 'none', tokenIndex: -2 }, noWait).score(TASK, ['xy']);
    expect(earlier).toStrictEqual([fixtureReward(`${TASK}x`)]);
  });

  it('needs classIndex for several outputs per token, and refuses base64 data and old servers', async () => {
    const twoLabels = await serve((body) => ({ status: 200, body: { data: (body as { input: string[] }).input.map((_, index) => ({ index, data: [[0.1, 0.9], [0.3, 0.7]] })) } }));
    const model = (extra: object = {}) => createVllmPoolingRewardModel({ url: twoLabels.url('/pooling'), model: 'prm', template: 'none', ...extra }, noWait);
    await expect(model().score(TASK, [PLAN])).rejects.toThrow(/has 2 outputs per token \(a process reward model\?\)/);
    expect(await model({ classIndex: 1 }).score(TASK, [PLAN])).toStrictEqual([0.7]);
    await twoLabels.close();
    const base64 = await serve(() => ({ status: 200, body: { data: [{ index: 0, data: 'AAAA' }] } }));
    await expect(createVllmPoolingRewardModel({ url: base64.url('/pooling'), model: 'rm' }, noWait).score(TASK, [PLAN])).rejects.toThrow(/returned base64 data/);
    await base64.close();
    const old = await serve((body) => ({ status: 200, body: vllmPoolingReply(body) }), '0.10.1.1');
    await expect(createVllmPoolingRewardModel({ url: old.url('/pooling'), model: 'rm' }, noWait).score(TASK, [PLAN])).rejects.toThrow(/version 0\.10\.1\.1, older than 0\.11\.1/);
  });
});
