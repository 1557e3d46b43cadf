import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../core/index.js';
import { ModelNotServedError, parseProviderConfig } from '../llm/index.js';
import { startChatServer, type ChatServer } from '../testing/index.js';
import { NoTrainablePolicyError, runGrpo } from '../train/index.js';
import { createRemoteEnvironment } from './remote-environment.js';

const PLAN = JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'cot', input: '', params: {} }], edges: [], answer: 'A' });

let directory: string;
let server: ChatServer;
let taskFile: string;
beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-remote-env-'));
  taskFile = join(directory, 'tasks.jsonl');
  writeFileSync(taskFile, [JSON.stringify({ id: 'q1', question: 'What is 2 + 3?', answer: '5' }), JSON.stringify({ id: 'q2', question: 'What is 2 + 4?', answer: '6' })].join('\n'));
  writeFileSync(join(directory, 'corpus.jsonl'), JSON.stringify({ id: 'd1', title: 'Sums', text: 'Two plus three is five.' }));
  server = await startChatServer({ models: ['orch', 'work', 'judge', 'other'], handler: (body) => ({ text: body.model === 'orch' || body.model === 'other' ? PLAN : 'Five.\n<answer>5</answer>' }) });
});
afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

const config = () => parseProviderConfig({ type: 'openai', baseURL: server.url, apiKeyEnv: 'ORCHRM_REMOTE_ENV_KEY', models: { orchestrator: 'orch', worker: 'work', judge: 'judge' }, maxRetries: 0 });

describe('createRemoteEnvironment', () => {
  it('serves a task file for every split, offers no search block without a corpus, and writes plans with the configured orchestrator', async () => {
    const environment = await createRemoteEnvironment(config(), taskFile);
    try {
      expect(environment.tasks('train').map((task) => task.id)).toEqual(['q1', 'q2']);
      expect(environment.tasks('test', 1).map((task) => task.id)).toEqual(['q1']);
      expect(environment.retriever).toBeUndefined();
      expect(environment.blocks.resolve('search')).toBeUndefined();
      expect(environment.blocks.resolve('cot')).toBeDefined();
      expect(environment.trainable).toBeUndefined();
      expect((await environment.grader(environment.tasks('train')[0]!, '5'))?.correct).toBe(true);

      const orchestrator = environment.orchestrator();
      expect(orchestrator.ref).toEqual({ name: 'orch' });
      const written = await orchestrator.writePlan(environment.tasks('train')[0]!, { sampleIndex: 0, seed: 1 });
      expect(written.text).toBe(PLAN);
      // Without a reference no model is named: the provider asks for models.orchestrator.
      expect(server.requests.at(-1)?.model).toBe('orch');

      const other = environment.orchestrator('other', { format: 'xml', dom: 'high' });
      expect(other.ref).toEqual({ name: 'other' });
      expect([other.format, other.dom]).toEqual(['xml', 'high']);
    } finally {
      environment.close();
    }
  });

  it('reads its provider config file, a suite and a corpus, and records a model by the ref it is given', async () => {
    const providerFile = join(directory, 'provider.json');
    writeFileSync(providerFile, JSON.stringify({ type: 'openai', baseURL: server.url, apiKeyEnv: 'ORCHRM_REMOTE_ENV_KEY', models: { orchestrator: 'orch', worker: 'work', judge: 'judge' } }));
    const environment = await createRemoteEnvironment(providerFile, taskFile, {
      suite: 'jsonl',
      corpus: join(directory, 'corpus.jsonl'),
      orchestratorRef: (model) => ({ name: 'mine', checkpoint: model }),
    });
    try {
      expect(environment.suite).toBe('jsonl');
      expect(environment.retriever).toBeDefined();
      expect(environment.blocks.resolve('search')).toBeDefined();
      expect(environment.orchestrator().ref).toEqual({ name: 'mine', checkpoint: 'orch' });
    } finally {
      environment.close();
    }
  });

  it('asks the server for its models before anything is opened', async () => {
    const missing = parseProviderConfig({ ...config(), models: { orchestrator: 'orch', worker: 'nope', judge: 'judge' } });
    await expect(createRemoteEnvironment(missing, taskFile)).rejects.toBeInstanceOf(ModelNotServedError);
    await expect(createRemoteEnvironment(config(), taskFile, { checkModels: { orchestrator: { model: 'absent', source: '--orchestrator' } } })).rejects.toThrow(/--orchestrator/);
  });

  it('validates a provider config given as an object', async () => {
    await expect(createRemoteEnvironment({ type: 'openai', baseURL: server.url, models: { orchestrator: 'orch', worker: 'work', judge: 'judge' }, timeoutMs: -1 }, taskFile)).rejects.toBeInstanceOf(InvalidInputError);
  });

  it('makes tasks from a generator by split', async () => {
    const environment = await createRemoteEnvironment(config(), { tasks: (split, count = 1) => Array.from({ length: count }, (_, index) => ({ id: `${split}-${index}`, suite: 'custom', question: `q${index}?`, metadata: {} })) });
    try {
      expect(environment.tasks('test', 2).map((task) => task.id)).toEqual(['test-0', 'test-1']);
    } finally {
      environment.close();
    }
  });

  it('refuses GRPO with a typed error: a remote orchestrator is not trainable', async () => {
    const environment = await createRemoteEnvironment(config(), taskFile);
    try {
      const attempt = runGrpo(environment, { reward: 'execution' });
      await expect(attempt).rejects.toBeInstanceOf(NoTrainablePolicyError);
      await expect(attempt).rejects.toThrow(/GRPO needs an orchestrator it can train, and the environment .* has none/);
    } finally {
      environment.close();
    }
  });
});
