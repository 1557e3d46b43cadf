import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Episode } from '../../core/episode.js';
import { openStore } from '../../store/index.js';
import { createParseErrorEpisode, createRichEpisode } from '../../testing/episode-factory.js';
import { registerExportCommand } from './export.js';
import { registerImportCommand } from './import.js';
import { registerInspectCommand } from './inspect.js';

let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-cli-store-'));
});
afterEach(() => {
  process.exitCode = undefined;
  rmSync(directory, { recursive: true, force: true });
});

/** Runs `orchrm <args>` with the three store commands and returns what they printed. */
async function run(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { stdout: [] as string[], stderr: [] as string[] };
  stdout.on('data', (chunk: Buffer) => chunks.stdout.push(chunk.toString()));
  stderr.on('data', (chunk: Buffer) => chunks.stderr.push(chunk.toString()));
  const program = new Command('orchrm').exitOverride();
  for (const register of [registerExportCommand, registerImportCommand, registerInspectCommand]) register(program, { stdout, stderr });
  await program.parseAsync(args, { from: 'user' });
  return { stdout: chunks.stdout.join(''), stderr: chunks.stderr.join('') };
}

function seedStore(path: string): Episode[] {
  const store = openStore(path, { keepPrompts: true });
  const run = store.createRun({ kind: 'collect', config: {} });
  const episodes = [createRichEpisode({ seed: 1, runId: run.id }), createParseErrorEpisode({ seed: 2 })];
  for (const episode of episodes) store.insertEpisode(episode);
  store.close();
  return episodes;
}

it('exports to stdout and to a file, then imports into another store', async () => {
  const source = join(directory, 'source.db');
  const episodes = seedStore(source);
  const toStdout = await run('export', '--db', source, '--format', 'jsonl', '--status', 'parse_error');
  expect(JSON.parse(toStdout.stdout)).toStrictEqual(episodes[1]);
  expect(toStdout.stderr).toBe(`exported 1 episode(s) from ${source} to stdout\n`);

  const file = join(directory, 'all.jsonl');
  await run('export', '--db', source, '--out', file);
  expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(2);

  const target = join(directory, 'target.db');
  const imported = await run('import', '--db', target, file, '--keep-prompts', '--json');
  expect(JSON.parse(imported.stdout)).toEqual({ imported: 2, skipped: 0 });
  const store = openStore(target, { readonly: true });
  expect(episodes.map((episode) => store.getEpisode(episode.id))).toStrictEqual(episodes);
  store.close();
  const again = await run('import', '--db', target, file);
  expect(again.stdout).toBe(`imported 0 episode(s) from ${file} into ${target}; skipped 2 already stored\n`);
});

it('inspects an episode as a trace or as JSON, and fails clearly for an unknown id', async () => {
  const db = join(directory, 'store.db');
  const [rich] = seedStore(db);
  if (rich === undefined) throw new Error('no episode');
  const trace = await run('inspect', rich.id, '--db', db);
  expect(trace.stdout.split('\n')[0]).toBe(`Episode ${rich.id}  [ok]`);
  expect(trace.stdout).toContain('Nodes (7):');
  expect(trace.stdout).not.toContain('[system]:');
  const full = await run('inspect', rich.id, '--db', db, '--full');
  expect(full.stdout).toContain('[system]:\n');
  const json = await run('inspect', rich.id, '--db', db, '--json');
  expect(JSON.parse(json.stdout)).toStrictEqual(rich);

  // Without an id: the episode stored last, named on stderr.
  const last = await run('inspect', '--db', db);
  expect(last.stdout.split('\n')[0]).toMatch(/^Episode \S+ {2}\[parse_error\] /);
  expect(last.stderr).toMatch(/^orchrm: episode \S+, the last of 2 in .*store\.db; pass an id to see another\n$/);

  await run('inspect', 'ep_missing', '--db', db);
  expect(process.exitCode).toBe(2);
});

it('refuses an invalid import file and creates no store', async () => {
  const file = join(directory, 'bad.jsonl');
  writeFileSync(file, '{"schemaVersion": 1}\n');
  const db = join(directory, 'store.db');
  await run('import', '--db', db, file);
  expect(process.exitCode).toBe(2);
  expect(existsSync(db)).toBe(false);
});
