import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { registerRetrieveCommand } from './retrieve.js';

const directory = mkdtempSync(join(tmpdir(), 'orchrm-retrieve-cli-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

const corpusPath = join(directory, 'corpus.jsonl');
writeFileSync(
  corpusPath,
  [
    { id: 'd1', title: 'Dogs', text: 'Dogs are domesticated descendants of wolves.' },
    { id: 'd2', title: 'Wolves', text: 'Wolves live and hunt in packs; wolves howl.' },
    { id: 'd3', title: 'Cats', text: 'Cats are small carnivorous mammals.' },
  ]
    .map((document) => JSON.stringify(document))
    .join('\n'),
);

async function run(...args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = { stdout: '', stderr: '' };
  stdout.on('data', (chunk: Buffer) => (text.stdout += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (text.stderr += chunk.toString()));
  const program = new Command('orchrm').exitOverride();
  registerRetrieveCommand(program, { stdout, stderr });
  await program.parseAsync(['retrieve', ...args], { from: 'user' });
  return { ...text, exitCode: process.exitCode };
}

describe('orchrm retrieve', () => {
  test('--json: ranked documents with scores, at most k', async () => {
    const { stdout, stderr } = await run('--corpus', corpusPath, '--query', 'wolves', '--json');
    const results = JSON.parse(stdout) as { id: string; title: string; score: number }[];
    expect(results.map((result) => result.id)).toEqual(['d2', 'd1']);
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
    expect(stderr).toBe('indexing 3 documents\n');
    expect(JSON.parse((await run('--corpus', corpusPath, '--query', 'wolves', '--k', '1', '--json')).stdout)).toHaveLength(1);
  });

  test('text output and no matches', async () => {
    const { stdout } = await run('--corpus', corpusPath, '--query', 'cats');
    expect(stdout).toMatch(/^1\. Cats \[d3\] score \d+\.\d{3}\n {3}Cats are small carnivorous mammals\.\n$/);
    expect((await run('--corpus', corpusPath, '--query', 'photosynthesis')).stdout).toBe('no document shares a term with the query\n');
  });

  test('a missing corpus is a user error (exit code 2)', async () => {
    let errors = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((errors += String(chunk)), true));
    const { exitCode } = await run('--corpus', join(directory, 'missing.jsonl'), '--query', 'x');
    expect(exitCode).toBe(2);
    expect(errors).toContain('cannot read corpus file');
  });
});
