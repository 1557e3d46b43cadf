import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRewardServer, type RewardServer } from './start-reward-server.js';
import { createLengthRewardModel } from './test-fixtures/fake-reward-models.js';

const hasPython = spawnSync('python3', ['--version']).status === 0;
const title = hasPython ? 'the verl reward function in docs/integrations.md' : 'the verl reward function (skipped: no python3 on this machine)';

/** The python block of docs/integrations.md that starts with `# orchrm_reward.py`, exactly as a user would copy it. */
async function verlSnippet(): Promise<string> {
  const docs = await readFile(new URL('../../docs/integrations.md', import.meta.url), 'utf8');
  const block = /```python\n(# orchrm_reward\.py[\s\S]*?)```/.exec(docs)?.[1];
  if (!block) throw new Error('docs/integrations.md has no ```python block starting with "# orchrm_reward.py"');
  return block;
}

function runPython(directory: string, program: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('python3', ['-c', `import sys; sys.path.insert(0, ${JSON.stringify(directory)})\n${program}`], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

describe.skipIf(!hasPython)(title, () => {
  let directory: string;
  let open: RewardServer;
  let guarded: RewardServer;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'orchrm-verl-'));
    await writeFile(join(directory, 'orchrm_reward.py'), await verlSnippet());
    open = await startRewardServer({ model: createLengthRewardModel() });
    guarded = await startRewardServer({ model: createLengthRewardModel(), token: 'py-token' });
  });
  afterAll(async () => {
    await Promise.all([open?.close(), guarded?.close()]);
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('compute_score returns the server\'s score of the plan for the task in extra_info', async () => {
    const result = await runPython(
      directory,
      'import json, orchrm_reward\nprint(json.dumps([orchrm_reward.compute_score("sim", "abcdef", "4", {"question": "0123456789"}), orchrm_reward.compute_score("sim", "", None, {"task": ""})]))',
      { ORCHRM_REWARD_URL: open.url },
    );
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual([5, 0]);
  });

  it('compute_score_batch groups plans by task and keeps their order', async () => {
    const result = await runPython(
      directory,
      'import json, orchrm_reward\nprint(json.dumps(orchrm_reward.compute_score_batch(["a"] * 3, ["xx", "yyyy", "z"], [None] * 3, [{"question": "t" * 10}, {"question": ""}, {"question": "t" * 10}])))',
      { ORCHRM_REWARD_URL: open.url },
    );
    expect(JSON.parse(result.stdout)).toEqual([1, 4, 0]);
    expect(open.app.metrics.requestCount('/v1/score', 200)).toBe(4);
  });

  it('sends the token from ORCHRM_REWARD_API_KEY, and reports a 401 without it', async () => {
    const program = 'import orchrm_reward\nprint(orchrm_reward.compute_score("sim", "abc", None, {"question": ""}))';
    expect((await runPython(directory, program, { ORCHRM_REWARD_URL: guarded.url, ORCHRM_REWARD_API_KEY: 'py-token' })).stdout.trim()).toBe('3.0');
    const refused = await runPython(directory, program, { ORCHRM_REWARD_URL: guarded.url });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('RuntimeError: orchrm reward server answered 401');
  });

  it('says where the task must be when extra_info lacks it', async () => {
    const result = await runPython(directory, 'import orchrm_reward\norchrm_reward.compute_score("sim", "abc", None, {})', { ORCHRM_REWARD_URL: open.url });
    expect(result.stderr).toContain("ValueError: orchrm_reward needs the task text in extra_info['question']");
  });
});
