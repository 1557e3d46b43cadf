import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonWith, runPython } from '../core/test-fixtures/python-harness.js';
import { Rng } from '../core/rng.js';
import { buildOrchestratorMessages, defaultBlockCatalog, formatPlanXml } from '../plan/index.js';
import { syntheticPlan, syntheticTask } from '../rm/index.js';
import { startRewardServer, type RewardServer } from './start-reward-server.js';
import { createLengthRewardModel } from './test-fixtures/fake-reward-models.js';
import { endOfTurn, renderChat } from './test-fixtures/render-chat.js';

const python = pythonWith(['requests', 'aiohttp', 'numpy']);
const HARNESS = new URL('./test-fixtures/openrlhf_remote_reward_client.py', import.meta.url).pathname;

interface HarnessResult {
  rewards: (number | null)[] | null;
  scores: (number | null)[] | null;
  extra_logs: Record<string, number[]> | null;
  log: string[];
  error: string | null;
  requests: number;
}

/**
 * A rollout batch as OpenRLHF builds it from orchrm's orchestrator prompt: 128 tasks x 8
 * samples, each prompt rendered with Llama 3.1's chat template (which keeps the developer message;
 * Qwen2.5's drops it), each query the prompt, the plan
 * and the `<|im_end|>` the policy ended with. `expected` is the length model's score of the
 * plan for the task, so a wrong task or plan shows.
 */
function rolloutBatch() {
  const catalog = defaultBlockCatalog();
  const rng = new Rng(15);
  const queries: string[] = [];
  const prompts: string[] = [];
  const expected: number[] = [];
  const tasks: string[] = [];
  for (let taskIndex = 0; taskIndex < 128; taskIndex++) {
    const task = syntheticTask(rng, taskIndex, 100).question;
    tasks.push(task);
    const prompt = renderChat(buildOrchestratorMessages(task, { catalog, format: 'xml', dom: 'auto' }), 'llama3.1-instruct');
    for (let sample = 0; sample < 8; sample++) {
      const plan = formatPlanXml(syntheticPlan(rng, ['sc', 'cot', 'debate', 'reflexion'].slice(0, 1 + (sample % 4)), 90));
      prompts.push(prompt);
      queries.push(`${prompt}${plan}${endOfTurn('llama3.1-instruct')}`);
      expected.push(plan.length - task.length / 10);
    }
  }
  return { queries, prompts, labels: queries.map(() => ''), expected, tasks };
}

/** The task of the batch's first prompt. */
function realUseTask(batch: ReturnType<typeof rolloutBatch>): string {
  return batch.tasks[0]!;
}

/**
 * The batch's first sample as OpenRLHF sends it in real runs: as rendered; its prompt cut from
 * the left to fit `max_len` (0.9.1 and later keep the prompt's last tokens; a character split
 * at the cut decodes as U+FFFD); re-decoded with a space after each special token; and a query
 * whose prompt is not in it at all (a prompt column that is not what the policy saw).
 */
function realUseQueries(batch: ReturnType<typeof rolloutBatch>) {
  const [prompt, query] = [batch.prompts[0]!, batch.queries[0]!];
  const rest = query.slice(prompt.length);
  const queries = [query, `\uFFFD${prompt.slice(1500)}${rest}`, `${prompt.replaceAll('|>', '|> ')}${rest}`, `An unrelated question?${rest}`];
  return { queries, prompts: queries.map(() => prompt), labels: queries.map(() => '') };
}

describe.skipIf(!python.available)(`OpenRLHF's remote reward clients against orchrm serve ${python.reason}`, () => {
  let directory: string;
  const servers: RewardServer[] = [];
  const logLines: string[] = [];
  let results: HarnessResult[];
  let batch: ReturnType<typeof rolloutBatch>;
  let bodyBytes: number;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'orchrm-openrlhf-'));
    batch = rolloutBatch();
    bodyBytes = Buffer.byteLength(JSON.stringify({ query: batch.queries, prompts: batch.prompts, labels: batch.labels }));
    const start = async (options: Parameters<typeof startRewardServer>[0]) => {
      const server = await startRewardServer(options);
      servers.push(server);
      return server;
    };
    // Default limits, as `orchrm serve` starts; two of them, as OpenRLHF takes a comma-separated list.
    const [first, second] = [await start({ model: createLengthRewardModel() }), await start({ model: createLengthRewardModel() })];
    const small = await start({ model: createLengthRewardModel(), maxBodyBytes: 512 * 1024 });
    const logging = await start({ model: createLengthRewardModel(), events: (event) => logLines.push(event.type === 'request-refused' ? `refused ${event.refusal.code}` : `unscored ${event.unscored.map((query) => query.code).join(' ')}`) });
    const url = (server: RewardServer) => `${server.url}/get_reward`;
    const realUse = realUseQueries(batch);
    const head = (count: number) => ({ queries: batch.queries.slice(0, count), prompts: batch.prompts.slice(0, count), labels: batch.labels.slice(0, count) });
    const jobs = [
      { mode: 'batch', urls: [url(first!)], ...batch },
      { mode: 'batch', urls: [url(first!), url(second!)], ...head(64) },
      { mode: 'batch', urls: [url(small)], ...head(64), retry_sleep_s: 0 },
      // One request per sample: the first 128 samples of the batch (the rest would be the same
      // request again; the Python client spends about 4 ms on each here).
      { mode: 'per-sample', urls: [url(first!)], ...head(128) },
      // What real runs send (issue 24): left-truncated and re-spaced queries, and one whose prompt is not in it at all.
      { mode: 'per-sample', urls: [url(logging)], ...realUse, retry_sleep_s: 0, missing_reward_ends_step: true },
      { mode: 'batch', urls: [url(logging)], ...realUse, retry_sleep_s: 0 },
    ];
    const file = join(directory, 'jobs.json');
    await writeFile(file, JSON.stringify(jobs));
    const run = await runPython(HARNESS, [file], { timeoutMs: 120_000 });
    if (run.code !== 0) throw new Error(`harness failed: ${run.stderr}`);
    results = JSON.parse(run.stdout) as HarnessResult[];
  }, 150_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('0.7.1-0.9.0: one request with the whole 1024-query batch (10.4 MB) is scored under the default limits, task read from the orchestrator prompt', () => {
    expect(bodyBytes).toBeGreaterThan(10_400_000);
    const [whole] = results;
    expect(whole).toMatchObject({ error: null, requests: 1, log: [] });
    expect(whole!.rewards).toEqual(batch.expected.map((value) => Math.fround(value)));
    expect(whole!.scores).toEqual(whole!.rewards);
    expect(whole!.extra_logs?.plan_chars).toHaveLength(1024);
    expect(servers[0]!.app.metrics.taskExtractionCount('orchrm-prompt')).toBeGreaterThanOrEqual(1024);
  });

  it('0.7.1-0.9.0: a batch split over two URLs comes back whole and in order', () => {
    const split = results[1]!;
    expect(split).toMatchObject({ error: null, requests: 2 });
    expect(split.rewards).toEqual(results[0]!.rewards!.slice(0, 64));
    expect(servers[1]!.app.metrics.requestCount('/get_reward', 200)).toBe(1);
  });

  it('0.7.1-0.9.0: over the limit (as 10.4 MB was over the old 8 MiB default) the client retries 5 times and ends the run; its log shows why', () => {
    const refused = results[2]!;
    expect(refused.error).toMatch(/Request error for 5 times/);
    expect(refused.log).toHaveLength(5);
    expect(refused.log[0]).toContain('413 Client Error: Payload Too Large (body_too_large)');
    expect(servers[2]!.app.metrics.refusalCount('/get_reward', 'body_too_large')).toBe(5);
  });

  it('0.9.1-0.11.0: one request per sample (128 of the batch), each scored for its task', () => {
    const perSample = results[3]!;
    expect(perSample).toMatchObject({ error: null, requests: 128 });
    expect(perSample.rewards).toEqual(batch.expected.slice(0, 128));
  });

  it('0.9.1-0.11.0: left-truncated and re-spaced queries are scored as the exact ones; a query without its prompt gets the empty plan\'s score, so 0.11.0\'s step does not crash (issue 24)', () => {
    const perSample = results[4]!;
    expect(perSample).toMatchObject({ error: null, requests: 4, log: [] });
    const exact = batch.expected[0]!;
    expect(perSample.rewards).toEqual([exact, exact, exact, -realUseTask(batch).length / 10]);
    expect(perSample.extra_logs?.unscored).toEqual([0, 0, 0, 1]);
    expect(servers[3]!.app.metrics.realignedCount()).toBe(2 * 2);
  });

  it('0.7.1-0.9.0: the same samples in one batch are answered at once (a 400 made the client retry 5 times and end the run)', () => {
    const whole = results[5]!;
    expect(whole).toMatchObject({ error: null, requests: 1, log: [] });
    // The batch client reads rewards as float32.
    expect(whole.rewards).toEqual(results[4]!.rewards!.map((reward) => Math.fround(reward!)));
    expect(whole.extra_logs?.unscored).toEqual([0, 0, 0, 1]);
    expect(servers[3]!.app.metrics.unscoredCount('query_prompt_mismatch')).toBe(2);
    expect(logLines).toEqual(['unscored query_prompt_mismatch', 'unscored query_prompt_mismatch']);
  });
});
