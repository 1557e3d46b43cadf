import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import { createRichEpisode } from '../testing/episode-factory.js';
import { registerCollectCommand } from './commands/collect.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerExportCommand } from './commands/export.js';
import { registerImportCommand } from './commands/import.js';
import { registerPairsCommand } from './commands/pairs.js';
import { registerRmCommand } from './commands/rm.js';
import { registerSimImproveCommand } from './commands/sim-improve.js';
import { registerViewCommand } from './commands/view.js';

/*
 * Issue 24 item 1: no command overwrites its own input (the database it reads, the tasks file),
 * and none replaces an existing output unless --force; each refusal is a usage error (exit 2)
 * naming the flag, and the files are left byte for byte as they were.
 */

let directory: string;
const path = (name: string) => join(directory, name);
const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-output-guard-'));
  const store = openStore(path('runs.db'));
  const run = store.createRun({ kind: 'collect', config: {} });
  store.insertEpisode(createRichEpisode({ seed: 1, runId: run.id }));
  store.close();
  writeFileSync(path('tasks.jsonl'), '{"id": "t1", "question": "What is 2 + 3?", "answer": "5"}\n');
  writeFileSync(path('existing.jsonl'), 'keep me\n');
  symlinkSync(path('runs.db'), path('link-to-runs.db'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Runs `orchrm <args>` in-process with the commands that write files; returns the exit code and stderr. */
async function run(...args: string[]): Promise<{ exitCode: number | undefined; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const errors: string[] = [];
  stderr.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  stdout.resume();
  const program = new Command('orchrm').exitOverride();
  registerExportCommand(program, { stdout, stderr });
  registerImportCommand(program, { stdout, stderr });
  registerPairsCommand(program, { stdout, stderr });
  registerRmCommand(program, { stdout, stderr });
  registerSimImproveCommand(program, { stdout, stderr });
  registerDemoCommand(program, { stdout, stderr });
  registerViewCommand(program, { stdout, stderr, untilShutdown: () => Promise.resolve('test') });
  registerCollectCommand(program);
  // runAction writes its message to process.stderr.
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => errors.push(String(chunk)) > 0) as typeof process.stderr.write;
  process.exitCode = undefined;
  try {
    await program.parseAsync(args, { from: 'user' });
    return { exitCode: process.exitCode === undefined ? undefined : Number(process.exitCode), stderr: errors.join('') };
  } finally {
    process.stderr.write = write;
    process.exitCode = undefined;
  }
}

describe('a command never writes over its own input', () => {
  it.each([
    [['export', '--db', 'runs.db', '--out', 'runs.db'], '--out'],
    [['export', '--db', 'runs.db', '--out', 'link-to-runs.db', '--force'], '--out'],
    [['pairs', 'export', '--db', 'runs.db', '--out', 'runs.db', '--force'], '--out'],
    [['rm', 'train', '--db', 'runs.db', '--out', 'runs.db', '--force'], '--out'],
    [['view', '--db', 'runs.db', '--out', 'runs.db', '--force'], '--out'],
    [['import', '--db', 'tasks.jsonl', 'tasks.jsonl'], '--db'],
    [['collect', '--tasks', 'tasks.jsonl', '--db', 'tasks.jsonl', '--provider', 'provider.json'], '--db'],
  ])('orchrm %j refuses, even with --force, and leaves the input as it was', async (args, flag) => {
    const before = { db: digest(path('runs.db')), tasks: digest(path('tasks.jsonl')) };
    const outcome = await run(...args.map((arg) => (arg.includes('.') ? path(arg) : arg)));
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toMatch(new RegExp(`orchrm: ${flag} \\S+ is the file \\S+ reads .*writing it would destroy the input`));
    expect({ db: digest(path('runs.db')), tasks: digest(path('tasks.jsonl')) }).toEqual(before);
  });
});

describe('an existing output is replaced only with --force', () => {
  it('export refuses an existing --out, naming --force, and replaces it with --force', async () => {
    const refused = await run('export', '--db', path('runs.db'), '--out', path('existing.jsonl'));
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`--out ${path('existing.jsonl')}: the file exists; pass --force to replace it, or give --out another path`);
    expect(readFileSync(path('existing.jsonl'), 'utf8')).toBe('keep me\n');
    const forced = await run('export', '--db', path('runs.db'), '--out', path('existing.jsonl'), '--force');
    expect(forced.exitCode).toBeUndefined();
    expect(readFileSync(path('existing.jsonl'), 'utf8')).toMatch(/^\{"/);
  });

  it.each([
    [['pairs', 'export', '--db', 'runs.db', '--out', 'tasks.jsonl']],
    [['rm', 'train', '--db', 'runs.db', '--out', 'tasks.jsonl']],
    [['sim', 'improve', '--out', 'tasks.jsonl']],
  ])('orchrm %j refuses to replace an existing file without --force', async (args) => {
    const before = digest(path('tasks.jsonl'));
    const outcome = await run(...args.map((arg) => (arg.includes('.') ? path(arg) : arg)));
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toContain('the file exists; pass --force to replace it');
    expect(digest(path('tasks.jsonl'))).toBe(before);
  });

  it('pairs export refuses an existing layout file beside --out', async () => {
    writeFileSync(path('pairs.jsonl.orchrm-layout'), '{}\n');
    const outcome = await run('pairs', 'export', '--db', path('runs.db'), '--out', path('pairs.jsonl'));
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toContain('--layout (default <out>.orchrm-layout)');
  });

  it('demo refuses a scenario whose families cannot all be loaded, before writing anything', async () => {
    writeFileSync(path('hotpot-elsewhere.json'), JSON.stringify({ name: 'hotpot-elsewhere', families: { arith: { weight: 1 }, hotpot: { weight: 1, path: 'no-such-hotpot.jsonl' } } }));
    const result = await run('demo', '--quick', '--scenario', path('hotpot-elsewhere.json'), '--out', path('demo-missing-family'));
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/scenario hotpot-elsewhere names families that cannot be loaded \(hotpot: HotpotQA file not found at .*no-such-hotpot\.jsonl.*\); the demo would run without them/);
    expect(existsSync(path('demo-missing-family/results.json'))).toBe(false);
  });

  it('demo says how to go on when --out holds an earlier demo, and refuses a file as --out', async () => {
    mkdirSync(path('orchrm-demo'));
    writeFileSync(path('orchrm-demo/results.json'), '{}\n');
    const again = await run('demo', '--quick', '--out', path('orchrm-demo'));
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('holds the results of an earlier demo (results.json); pass --force to replace them (with npm start: npm start -- --force), or give --out another folder');
    const onFile = await run('demo', '--quick', '--out', path('tasks.jsonl'));
    expect(onFile.exitCode).toBe(2);
    expect(onFile.stderr).toContain('is a file; this command writes a folder of files there');
    expect(onFile.stderr).not.toContain('unexpected error');
  });
});
