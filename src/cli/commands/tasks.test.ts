import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { registerTasksCommand } from './tasks.js';

const directory = mkdtempSync(join(tmpdir(), 'orchrm-tasks-cli-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

function file(name: string, records: readonly unknown[]): string {
  const path = join(directory, name);
  writeFileSync(path, records.map((record) => JSON.stringify(record)).join('\n'));
  return path;
}

async function run(...args: string[]) {
  const stdout = new PassThrough();
  let output = '';
  stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let errors = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((errors += String(chunk)), true));
  const program = new Command('orchrm').exitOverride();
  registerTasksCommand(program, { stdout, stderr: new PassThrough() });
  await program.parseAsync(['tasks', 'check', ...args], { from: 'user' });
  return { stdout: output, stderr: errors, exitCode: process.exitCode };
}

const math = [
  { problem: 'P1', answer: '1', level: 1, subject: 'Algebra' },
  { problem: 'P2', answer: '2', level: 5, subject: 'Algebra' },
  { problem: 'P3', answer: '3', level: 5, subject: 'Geometry' },
];

describe('orchrm tasks check', () => {
  test('--json: counts and breakdowns of a detected MATH file', async () => {
    const path = file('math.jsonl', math);
    const { stdout, exitCode } = await run(path, '--json');
    expect(JSON.parse(stdout)).toEqual({
      file: path,
      suite: 'math',
      tasks: 3,
      withAnswer: 3,
      withAliases: 0,
      withSupportingTitles: 0,
      breakdown: { level: { '1': 1, '5': 2 }, subject: { Algebra: 2, Geometry: 1 } },
    });
    expect(exitCode).toBeUndefined();
  });

  test('text report for a mapped JSONL file', async () => {
    const path = file('custom.jsonl', [{ prompt: 'Q1', target: 'A' }, { prompt: 'Q2' }]);
    const { stdout } = await run(path, '--suite', 'jsonl', '--question-field', 'prompt', '--answer-field', 'target');
    expect(stdout).toBe([`${path}: valid jsonl file`, '  tasks              2', '  with gold answer   1', '  with aliases       0', '  with supports      0', ''].join('\n'));
  });

  test('a bad file: every bad line on stderr, exit code 2', async () => {
    const path = file('bad.jsonl', [{ problem: 'P', answer: '25' }, { problem: 'P2', answer: 'x' }]);
    const { stdout, stderr, exitCode } = await run(path, '--suite', 'aime');
    expect(stdout).toBe('');
    expect(stderr).toContain(`AIME file ${path} is invalid:`);
    expect(stderr).toContain('line 2: answer: answer must be an integer from 0 to 999');
    expect(exitCode).toBe(2);
  });
});
