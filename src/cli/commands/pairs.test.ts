import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { brokenEpisode, fixtureTask, planEpisode } from '../../pairs/test-fixtures/plan-episode.js';
import { openStore } from '../../store/index.js';
import { registerPairsCommand } from './pairs.js';

let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-cli-pairs-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
  rmSync(directory, { recursive: true, force: true });
});

async function run(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { stdout: [] as string[], stderr: [] as string[] };
  stdout.on('data', (chunk: Buffer) => chunks.stdout.push(chunk.toString()));
  stderr.on('data', (chunk: Buffer) => chunks.stderr.push(chunk.toString()));
  const program = new Command('orchrm').exitOverride();
  registerPairsCommand(program, { stdout, stderr });
  await program.parseAsync(args, { from: 'user' });
  return { stdout: chunks.stdout.join(''), stderr: chunks.stderr.join('') };
}

function seedStore(path: string): void {
  const store = openStore(path);
  const base = { name: 'sim', checkpoint: 'base' };
  const strong = { name: 'sim', checkpoint: 'strong' };
  for (let index = 0; index < 12; index++) {
    const task = fixtureTask(`task-${index}`, index % 3 !== 0);
    const graded = task.answer !== undefined;
    store.insertEpisode(planEpisode({ id: `${task.id}-a`, task, variant: 'a', orchestrator: strong, ...(graded && { correct: true }) }));
    store.insertEpisode(planEpisode({ id: `${task.id}-b`, task, variant: 'b', voteShare: 0.2, orchestrator: base, executionTokens: 900, ...(graded && { correct: true }) }));
    store.insertEpisode(brokenEpisode(`${task.id}-c`, task, graded ? false : undefined, base));
  }
  store.close();
}

it('mines, reports stats, exports and imports through the CLI', async () => {
  const db = join(directory, 'store.db');
  seedStore(db);
  const config = join(directory, 'rubric.json');
  writeFileSync(config, JSON.stringify({ process: { consensus: { threshold: 0.2 }, health: { enabled: false } }, caps: { perTask: 10 } }));

  const mined = await run('pairs', 'mine', '--db', db, '--sources', 'outcome,checkpoint,process,efficiency', '--config', config, '--seed', '3', '--json');
  const report = JSON.parse(mined.stdout) as { datasetId: string; pairs: number; config: { seed: number; process: { consensus: { threshold: number } } } };
  expect(report.config).toMatchObject({ seed: 3, process: { consensus: { threshold: 0.2 }, health: { enabled: false } } });
  expect(report.pairs).toBeGreaterThan(0);
  expect(mined.stderr).toContain('reading episodes: 36/36');

  const human = await run('pairs', 'mine', '--db', db, '--sources', 'process', '--dataset', 'process-only');
  expect(human.stdout).toMatch(/^dataset process-only: \d+ pair\(s\) from 36 episode\(s\) of 12 task\(s\) \(4 without gold answer/);

  const stats = JSON.parse((await run('pairs', 'stats', '--db', db, '--dataset', report.datasetId, '--json')).stdout) as {
    pairs: number;
    bySource: Record<string, { pairs: number }>;
    agreementWithOutcome: Record<string, { graded: number; atLeastAsGood: number | null }>;
  };
  expect(stats.pairs).toBe(report.pairs);
  expect(Object.keys(stats.bySource).sort()).toEqual(['checkpoint', 'efficiency', 'outcome', 'process']);
  expect(stats.agreementWithOutcome.process?.atLeastAsGood).toBe(1);
  expect((await run('pairs', 'stats', '--db', db)).stdout).toMatch(/agreement with outcome/);

  const out = join(directory, 'train.jsonl');
  const exported = await run('pairs', 'export', '--db', db, '--dataset', report.datasetId, '--format', 'orchrm', '--split', 'train', '--out', out);
  const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
  expect(exported.stderr.split('\n').slice(0, 2)).toEqual([`exported ${lines.length} pair(s) as orchrm (text) to ${out}`, `layout: ${out}.orchrm-layout (pass it as "layout" to createVllmClassifyRewardModel)`]);
  const toStdout = await run('pairs', 'export', '--db', db, '--dataset', report.datasetId, '--format', 'openrlhf', '--chosen-key', 'good', '--split', 'train');
  expect(Object.keys(JSON.parse(toStdout.stdout.split('\n')[0] ?? '{}') as object)).toEqual(['prompt', 'good', 'rejected']);

  const target = join(directory, 'target.db');
  const imported = await run('pairs', 'import', out, '--db', target, '--split', 'train', '--json');
  expect(JSON.parse(imported.stdout)).toEqual({ datasetId: 'imported-train.jsonl', imported: lines.length, duplicates: 0 });
});

it('explains bad flags and files', async () => {
  const db = join(directory, 'store.db');
  seedStore(db);
  // runAction reports errors on the process's stderr.
  const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const failure = async (...args: string[]) => {
    errors.mockClear();
    process.exitCode = undefined;
    await run(...args);
    expect(process.exitCode).toBe(2);
    return errors.mock.calls.map(([chunk]) => String(chunk)).join('');
  };
  expect(await failure('pairs', 'mine', '--db', db, '--sources', 'outcome,vibes')).toMatch(
    /--sources must list some of outcome, checkpoint, process, efficiency, got "outcome,vibes"/,
  );
  const config = join(directory, 'bad.json');
  writeFileSync(config, JSON.stringify({ process: { consensus: { threshold: 2 } } }));
  expect(await failure('pairs', 'mine', '--db', db, '--config', config)).toMatch(/--config .*bad\.json is invalid:\n {2}- process\.consensus\.threshold/);
  expect(await failure('pairs', 'mine', '--db', db, '--config', join(directory, 'none.json'))).toMatch(/cannot read --config .*none\.json: ENOENT/);
  expect(await failure('pairs', 'stats', '--db', join(directory, 'absent.db'))).toMatch(/no orchrm database at/);
});

it('export: prints the OpenRLHF flags for the file, writes its layout, and explains removed or misplaced flags', async () => {
  const db = join(directory, 'store.db');
  seedStore(db);
  await run('pairs', 'mine', '--db', db, '--sources', 'outcome', '--dataset', 'd');
  const out = join(directory, 'openrlhf.jsonl');
  const { stderr } = await run('pairs', 'export', '--db', db, '--dataset', 'd', '--format', 'openrlhf', '--form', 'messages', '--out', out, '--eos-token', '</s>');
  expect(stderr).toContain(`train: OpenRLHF >= 0.10.2: --data.dataset ${out} --data.apply_chat_template --data.chosen_key chosen --data.rejected_key rejected`);
  expect(stderr).toContain(`train: OpenRLHF <= 0.10.1: --dataset ${out} --apply_chat_template`);
  expect(JSON.parse(readFileSync(`${out}.orchrm-layout`, 'utf8'))).toMatchObject({ format: 'openrlhf', form: 'messages', scoring: { eosToken: '</s>' } });
  const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const failure = async (...args: string[]) => {
    errors.mockClear();
    process.exitCode = undefined;
    await run('pairs', 'export', '--db', db, ...args);
    expect(process.exitCode).toBe(2);
    return errors.mock.calls.map(([chunk]) => String(chunk)).join('');
  };
  expect(await failure('--format', 'openrlhf', '--margin-key', 'gap')).toMatch(/--margin-key was removed: OpenRLHF reads margins only from a column named "margin"/);
  expect(await failure('--format', 'trl', '--prompt-key', 'task')).toMatch(/apply to --format openrlhf/);
  expect(await failure('--format', 'openrlhf', '--form', 'messages', '--prompt-key', 'task')).toMatch(/leave OpenRLHF's prompt_key unset/);
  expect(await failure('--format', 'openrlhf', '--chosen-key', 'margin')).toMatch(/"margin" is the key OpenRLHF reads margins from/);
});
