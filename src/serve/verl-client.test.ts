import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonWith, runPython } from '../core/test-fixtures/python-harness.js';
import { startRewardServer, type RewardServer } from './start-reward-server.js';
import { createLengthRewardModel } from './test-fixtures/fake-reward-models.js';

const python = pythonWith(['numpy']);
const HARNESS = new URL('./test-fixtures/verl_reward_managers.py', import.meta.url).pathname;

/** The python block of docs/integrations.md that starts with `# orchrm_reward.py`, exactly as a user would copy it. */
async function verlSnippet(): Promise<string> {
  const docs = await readFile(new URL('../../docs/integrations.md', import.meta.url), 'utf8');
  const block = /```python\n(# orchrm_reward\.py[\s\S]*?)```/.exec(docs)?.[1];
  if (!block) throw new Error('docs/integrations.md has no ```python block starting with "# orchrm_reward.py"');
  return block;
}

interface JobResult {
  scores: number[] | null;
  error: string | null;
}

/** verl samples: the plan is the response, the task is in extra_info (as verl's preprocessing stores it). */
const SAMPLES = [
  { data_source: 'orchrm/sim', solution_str: 'abcdef', ground_truth: '4', extra_info: { question: '0123456789', index: 0 } },
  { data_source: 'orchrm/sim', solution_str: 'yyyy', ground_truth: '5', extra_info: { question: '', index: 1 } },
  { data_source: 'orchrm/sim', solution_str: 'z', ground_truth: '4', extra_info: { task: '0123456789', index: 2 } },
];
/** The length model's scores for SAMPLES: plan length minus a tenth of the task's. */
const EXPECTED = [5, 4, 0];

describe.skipIf(!python.available)(`verl's reward managers calling the compute_score of docs/integrations.md ${python.reason}`, () => {
  let directory: string;
  let open: RewardServer;
  let guarded: RewardServer;
  let results: JobResult[];

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'orchrm-verl-'));
    const snippet = await verlSnippet();
    const module = join(directory, 'orchrm_reward.py');
    await writeFile(module, snippet);
    // The snippet as it was before issue 15: no **kwargs, so verl's extra keyword arguments fail.
    const withoutKwargs = join(directory, 'orchrm_reward_without_kwargs.py');
    await writeFile(withoutKwargs, snippet.replaceAll(', **kwargs):', '):'));
    open = await startRewardServer({ model: createLengthRewardModel() });
    guarded = await startRewardServer({ model: createLengthRewardModel(), token: 'py-token' });
    const base = { module, samples: SAMPLES, env: { ORCHRM_REWARD_URL: open.url } };
    const jobs = [
      // 0: legacy naive, with custom_reward_function.reward_kwargs
      { ...base, function: 'compute_score', path: 'legacy', reward_manager: 'naive', reward_kwargs: { format_weight: 0.5 } },
      // 1: legacy batch, with both kinds of reward kwargs
      { ...base, function: 'compute_score_batch', path: 'legacy', reward_manager: 'batch', reward_kwargs: { format_weight: 0.5 }, manager_kwargs: { max_resp_len: 512 } },
      // 2: reward loop (HEAD default), naive manager, reward model enabled (router address passed)
      { ...base, function: 'compute_score', path: 'reward-loop', reward_manager: 'naive', router_address: '127.0.0.1:9' },
      // 3: reward loop, remote manager, no reward model
      { ...base, function: 'compute_score', path: 'reward-loop', reward_manager: 'remote' },
      // 4: reward loop with the legacy-only batch manager
      { ...base, function: 'compute_score_batch', path: 'reward-loop', reward_manager: 'batch' },
      // 5: the old snippet on the reward loop with a router address
      { ...base, module: withoutKwargs, function: 'compute_score', path: 'reward-loop', reward_manager: 'naive', router_address: '127.0.0.1:9' },
      // 6-7: the token from ORCHRM_REWARD_API_KEY, present and missing
      { ...base, function: 'compute_score', path: 'legacy', reward_manager: 'naive', env: { ORCHRM_REWARD_URL: guarded.url, ORCHRM_REWARD_API_KEY: 'py-token' } },
      { ...base, function: 'compute_score', path: 'legacy', reward_manager: 'naive', env: { ORCHRM_REWARD_URL: guarded.url } },
      // 8: no task in extra_info
      { ...base, samples: [{ ...SAMPLES[0], extra_info: {} }], function: 'compute_score', path: 'legacy', reward_manager: 'naive' },
    ];
    const file = join(directory, 'jobs.json');
    await writeFile(file, JSON.stringify(jobs));
    const run = await runPython(HARNESS, [file]);
    if (run.code !== 0) throw new Error(`harness failed: ${run.stderr}`);
    results = JSON.parse(run.stdout) as JobResult[];
  }, 60_000);

  afterAll(async () => {
    await Promise.all([open?.close(), guarded?.close()]);
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('legacy path (use_reward_loop=False): the naive manager calls compute_score per sample with reward_kwargs', () => {
    expect(results[0]).toEqual({ scores: EXPECTED, error: null });
  });

  it('legacy path: the batch manager calls compute_score_batch once, grouped by task, order kept, with both kinds of kwargs', () => {
    expect(results[1]).toEqual({ scores: EXPECTED, error: null });
  });

  it('reward-loop path (the HEAD default): naive and remote managers call compute_score per sample, concurrently, with the router address', () => {
    expect(results[2]).toEqual({ scores: EXPECTED, error: null });
    expect(results[3]).toEqual({ scores: EXPECTED, error: null });
  });

  it('reward-loop path: reward_manager=batch does not exist there', () => {
    expect(results[4]?.error).toBe('ValueError: Unknown reward manager: batch');
  });

  it('a compute_score without **kwargs fails on the reward loop (what the docs had before)', () => {
    expect(results[5]?.error).toMatch(/TypeError: .*unexpected keyword argument 'reward_router_address'/);
  });

  it('sends the token from ORCHRM_REWARD_API_KEY, and reports a 401 without it', () => {
    expect(results[6]).toEqual({ scores: EXPECTED, error: null });
    expect(results[7]?.error).toMatch(/RuntimeError: orchrm reward server answered 401/);
  });

  it('says where the task must be when extra_info lacks it', () => {
    expect(results[8]?.error).toContain("ValueError: orchrm_reward needs the task text in extra_info['question']");
  });

  it('the server saw one request per sample on the per-sample paths and one per task on the batch path', () => {
    // Jobs 0, 2 and 3: one request per sample; job 1: one per task (2 tasks); the failing jobs send nothing.
    expect(open.app.metrics.requestCount('/v1/score', 200)).toBe(3 + 2 + 3 + 3);
  });
});
