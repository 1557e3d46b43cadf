import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { registerReportCommand } from './report.js';

const FIXTURE = new URL('../../report/test-fixtures/results.json', import.meta.url);
const directory = mkdtempSync(join(tmpdir(), 'orchrm-report-cli-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

async function run(...args: string[]) {
  const stdout = new PassThrough();
  let output = '';
  stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let errors = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((errors += String(chunk)), true));
  const program = new Command('orchrm').exitOverride();
  registerReportCommand(program, { stdout, stderr: new PassThrough() });
  await program.parseAsync(['report', ...args], { from: 'user' });
  return { stdout: output, stderr: errors, exitCode: process.exitCode };
}

function resultsDir(name: string, mutate?: (results: Record<string, unknown>) => void): string {
  const dir = join(directory, name);
  mkdirSync(dir);
  if (mutate === undefined) copyFileSync(FIXTURE, join(dir, 'results.json'));
  else {
    const results = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, unknown>;
    mutate(results);
    writeFileSync(join(dir, 'results.json'), JSON.stringify(results));
  }
  return dir;
}

describe('orchrm report', () => {
  test('writes <dir>/report.html and prints its path', async () => {
    const dir = resultsDir('ok');
    const { stdout, exitCode } = await run(dir);
    expect(stdout).toBe(`${join(dir, 'report.html')}\n`);
    expect(exitCode).toBeUndefined();
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/);
  });

  test('--json prints the path as JSON', async () => {
    const dir = resultsDir('json');
    const { stdout } = await run(dir, '--json');
    expect(JSON.parse(stdout)).toEqual({ path: join(dir, 'report.html') });
  });

  test('an invalid results.json names the field, exits 2 and writes no page', async () => {
    const dir = resultsDir('invalid', (results) => {
      ((results.grpo as Record<string, unknown>).rm as Record<string, unknown>).accuracy = 'high';
    });
    const { stdout, stderr, exitCode } = await run(dir);
    expect(stdout).toBe('');
    expect(exitCode).toBe(2);
    expect(stderr).toContain(`${join(dir, 'results.json')} is invalid`);
    expect(stderr).toContain('grpo.rm.accuracy');
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
  });

  test('a directory without results.json says how to make one', async () => {
    const dir = join(directory, 'empty');
    mkdirSync(dir);
    const { stderr, exitCode } = await run(dir);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('results.json does not exist; run orchrm demo --out');
  });
});
