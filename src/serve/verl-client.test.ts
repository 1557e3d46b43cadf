import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonWith, runPython } from '../core/test-fixtures/python-harness.js';
import { startRewardServer, type RewardServer } from './start-reward-server.js';
import { createLengthRewardModel } from './test-fixtures/fake-reward-models.js';

const python = pythonWith(['numpy']);
const HARNESS = new URL('./test-fixtures/verl_reward_managers.py', import.meta.url).pathname;

/** The verl releases the harness knows (verl-project/verl tags), oldest first. */
const VERL_RELEASES = ['0.4.1', '0.5.0', '0.6.0', '0.6.1', '0.7.0', '0.7.1', '0.8.0', '0.9.0'] as const;

/** The python block of docs/integrations.md that starts with `# orchrm_reward.py`, exactly as a user would copy it. */
function verlSnippet(docs: string): string {
  const block = /```python\n(# orchrm_reward\.py[\s\S]*?)```/.exec(docs)?.[1];
  if (!block) throw new Error('docs/integrations.md has no ```python block starting with "# orchrm_reward.py"');
  return block;
}

interface DocCommand {
  /** The comment line that opens the block, e.g. `# verl 0.7.1 and later`. */
  label: string;
  releases: string[];
  batch: boolean;
  overrides: string[];
}

const compare = (a: string, b: string) => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let index = 0; index < 3; index++) if ((x[index] ?? 0) !== (y[index] ?? 0)) return (x[index] ?? 0) - (y[index] ?? 0);
  return 0;
};

/**
 * Every ```bash block of docs/integrations.md that runs `verl.trainer.main_ppo`: its first line
 * says which releases it is for (`# verl 0.7.1 and later`, `# verl 0.4.1 to 0.7.0`,
 * `# verl 0.7.0, batch manager`), and its `key=value` lines are the Hydra overrides.
 */
function verlCommands(docs: string, modulePath: string): DocCommand[] {
  return [...docs.matchAll(/```bash\n(# verl [^\n]*)\n([\s\S]*?)```/g)].map(([, label, body]) => {
    const range = /^# verl (\d+\.\d+\.\d+)(?: to (\d+\.\d+\.\d+)| and later)?(, batch manager)?$/.exec(label!);
    if (!range || !body!.includes('verl.trainer.main_ppo')) throw new Error(`docs/integrations.md: a verl command must open with "# verl <from> to <to>" or "# verl <from> and later" (then ", batch manager" for that one), got "${label}"`);
    const [, from, to, batch] = range;
    const last = label!.includes('and later') ? VERL_RELEASES.at(-1)! : (to ?? from!);
    const releases = VERL_RELEASES.filter((release) => compare(release, from!) >= 0 && compare(release, last) <= 0);
    const overrides = body!
      .split('\n')
      .map((line) => line.trim().replace(/\s*\\$/, ''))
      .filter((line) => /^[\w.+]+=\S+$/.test(line))
      .map((line) => line.replace('/path/to/orchrm_reward.py', modulePath));
    return { label: label!, releases, batch: batch !== undefined, overrides };
  });
}

interface JobResult {
  scores: number[] | null;
  error: string | null;
  function: string | null;
}

/** verl samples: the plan is the response, the task is in extra_info (as verl's preprocessing stores it). */
const SAMPLES = [
  { data_source: 'orchrm/sim', solution_str: 'abcdef', ground_truth: '4', extra_info: { question: '0123456789', index: 0 } },
  { data_source: 'orchrm/sim', solution_str: 'yyyy', ground_truth: '5', extra_info: { question: '', index: 1 } },
  { data_source: 'orchrm/sim', solution_str: 'z', ground_truth: '4', extra_info: { task: '0123456789', index: 2 } },
];
/** The length model's scores for SAMPLES: plan length minus a tenth of the task's. */
const EXPECTED = [5, 4, 0];

describe.skipIf(!python.available)(`the verl commands of docs/integrations.md, run against each verl release's config keys and reward managers ${python.reason}`, () => {
  let directory: string;
  let open: RewardServer;
  let guarded: RewardServer;
  let commands: DocCommand[];
  let results: JobResult[];
  const jobs: { name: string; job: object }[] = [];
  const result = (name: string) => results[jobs.findIndex((entry) => entry.name === name)]!;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'orchrm-verl-'));
    const docs = await readFile(new URL('../../docs/integrations.md', import.meta.url), 'utf8');
    const snippet = verlSnippet(docs);
    const module = join(directory, 'orchrm_reward.py');
    await writeFile(module, snippet);
    // The snippet as it was before issue 15: no **kwargs, so the reward loop's extra keyword arguments fail.
    const withoutKwargs = join(directory, 'orchrm_reward_without_kwargs.py');
    await writeFile(withoutKwargs, snippet.replaceAll(', **kwargs):', '):'));
    commands = verlCommands(docs, module);
    open = await startRewardServer({ model: createLengthRewardModel() });
    guarded = await startRewardServer({ model: createLengthRewardModel(), token: 'py-token' });
    const base = { samples: SAMPLES, env: { ORCHRM_REWARD_URL: open.url } };
    for (const command of commands) {
      for (const verl of command.releases) jobs.push({ name: `${command.label} @ ${verl}`, job: { ...base, verl, overrides: command.overrides } });
    }
    const current = ['reward.custom_reward_function.path=' + module, 'reward.custom_reward_function.name=compute_score'];
    const old = ['custom_reward_function.path=' + module, 'custom_reward_function.name=compute_score'];
    jobs.push(
      // What docs/integrations.md gave before issue 24, on today's verl.
      { name: 'old keys @ 0.9.0', job: { ...base, verl: '0.9.0', overrides: old } },
      { name: 'old keys @ 0.8.0', job: { ...base, verl: '0.8.0', overrides: old } },
      { name: 'use_reward_loop=False @ 0.7.1', job: { ...base, verl: '0.7.1', overrides: ['reward_model.use_reward_loop=False', 'reward_model.reward_manager=batch', ...old] } },
      { name: 'batch manager @ 0.9.0', job: { ...base, verl: '0.9.0', overrides: ['reward.reward_manager.name=batch', ...current] } },
      // The reward loop with a reward model enabled passes the router address; the remote manager.
      { name: 'router @ 0.9.0', job: { ...base, verl: '0.9.0', overrides: current, router_address: '127.0.0.1:9' } },
      { name: 'remote manager @ 0.9.0', job: { ...base, verl: '0.9.0', overrides: ['reward.reward_manager.name=remote', ...current] } },
      { name: 'no **kwargs, router @ 0.9.0', job: { ...base, verl: '0.9.0', overrides: current.map((override) => override.replace(module, withoutKwargs)), router_address: '127.0.0.1:9' } },
      // The token from ORCHRM_REWARD_API_KEY, present and missing; no task in extra_info.
      { name: 'token', job: { ...base, verl: '0.9.0', overrides: current, env: { ORCHRM_REWARD_URL: guarded.url, ORCHRM_REWARD_API_KEY: 'py-token' } } },
      { name: 'no token', job: { ...base, verl: '0.9.0', overrides: current, env: { ORCHRM_REWARD_URL: guarded.url } } },
      { name: 'no task', job: { ...base, samples: [{ ...SAMPLES[0], extra_info: {} }], verl: '0.9.0', overrides: current } },
    );
    const file = join(directory, 'jobs.json');
    await writeFile(file, JSON.stringify(jobs.map((entry) => entry.job)));
    const run = await runPython(HARNESS, [file]);
    if (run.code !== 0) throw new Error(`harness failed: ${run.stderr}`);
    results = JSON.parse(run.stdout) as JobResult[];
  }, 60_000);

  afterAll(async () => {
    await Promise.all([open?.close(), guarded?.close()]);
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('every verl release has exactly one documented per-sample command, and each documented command scores with orchrm on every release it names (issue 24)', () => {
    const perSample = commands.filter((command) => !command.batch);
    expect(VERL_RELEASES.map((release) => ({ release, commands: perSample.filter((command) => command.releases.includes(release)).length }))).toEqual(
      VERL_RELEASES.map((release) => ({ release, commands: 1 })),
    );
    expect(commands.some((command) => command.batch)).toBe(true);
    const outcomes = jobs.filter((entry) => entry.name.includes(' @ ') && entry.name.startsWith('# verl')).map((entry) => ({ name: entry.name, ...result(entry.name) }));
    expect(outcomes.length).toBeGreaterThanOrEqual(VERL_RELEASES.length + 2);
    for (const outcome of outcomes) {
      expect({ name: outcome.name, scores: outcome.scores, error: outcome.error }).toEqual({ name: outcome.name, scores: EXPECTED, error: null });
      expect(outcome.function).toMatch(/^custom:compute_score(_batch)?$/);
    }
  });

  it('the old keys: migrated by verl 0.7.1 to 0.8.0, silently ignored by 0.9.0, which falls back to its default scorer', () => {
    expect(result('old keys @ 0.8.0')).toEqual({ scores: EXPECTED, error: null, function: 'custom:compute_score' });
    expect(result('old keys @ 0.9.0')).toEqual({ scores: null, error: "NotImplementedError: Reward function is not implemented for data_source='orchrm/sim'", function: 'default' });
  });

  it('since 0.7.1 there is no use_reward_loop key and no batch manager', () => {
    expect(result('use_reward_loop=False @ 0.7.1').error).toMatch(/^KeyError: "Could not override 'reward_model\.use_reward_loop'/);
    expect(result('batch manager @ 0.9.0').error).toBe('ValueError: Unknown reward manager: batch');
  });

  it('the reward loop: naive with a reward model enabled (router address passed) and remote managers score per sample; a compute_score without **kwargs fails there', () => {
    expect(result('router @ 0.9.0')).toMatchObject({ scores: EXPECTED, error: null });
    expect(result('remote manager @ 0.9.0')).toMatchObject({ scores: EXPECTED, error: null });
    expect(result('no **kwargs, router @ 0.9.0').error).toMatch(/TypeError: .*unexpected keyword argument 'reward_router_address'/);
  });

  it('sends the token from ORCHRM_REWARD_API_KEY, reports a 401 without it, and says where the task must be', () => {
    expect(result('token')).toMatchObject({ scores: EXPECTED, error: null });
    expect(result('no token').error).toMatch(/RuntimeError: orchrm reward server answered 401/);
    expect(result('no task').error).toContain("ValueError: orchrm_reward needs the task text in extra_info['question']");
  });
});
