import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../../testing/index.js';
import { COMMAND_CATALOG } from '../command-catalog.js';
import { BUILT_CLI, ensureBuilt } from '../test-fixtures/built-package.js';
import { runCommand } from '../test-fixtures/run-command.js';
import { registerCollectCommand } from './collect.js';

/*
 * Issue 24 item 6, wrong-format mistakes a new user makes: a GSM8K file read as generic JSONL
 * (exit 0 and 0.0% accuracy) or with no --suite (20 lines of "id: expected string"), an
 * Ollama-style baseURL without /v1 (told to check the model name), a --db that is not SQLite
 * ("unexpected error"), and command-line mistakes exiting 1 where --help says 2.
 */

const PLAN = JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'cot', input: 'Solve it.', params: {} }], edges: [], answer: 'A' });

let server: ChatServer;
let directory: string;
const path = (name: string) => join(directory, name);

beforeAll(async () => {
  server = await startChatServer({ models: ['m'], handler: (body) => (String(body.messages.at(-1)?.content).trimEnd().endsWith('Write the plan.') ? { text: PLAN } : { text: '<answer>5</answer>' }) });
  directory = mkdtempSync(join(tmpdir(), 'orchrm-wrong-format-'));
  const gsm8k = Array.from({ length: 25 }, (_, index) => JSON.stringify({ question: `Tom has ${index} apples and buys 5. How many?`, answer: `He has ${index} + 5 = ${index + 5}.\n#### ${index + 5}` }));
  writeFileSync(path('gsm8k.jsonl'), `${gsm8k.join('\n')}\n`);
  writeFileSync(path('unlabelled.jsonl'), '{"question": "What is 2 + 3?"}\n');
  writeFileSync(path('notes.txt'), 'not a database\n');
  const config = (baseURL: string) => JSON.stringify({ type: 'openai', baseURL, models: { orchestrator: 'm', worker: 'm', judge: 'm' } });
  writeFileSync(path('provider.json'), config(server.url));
  // Ollama's own address, as its docs give it for the native API, without the /v1 of its OpenAI-compatible one.
  writeFileSync(path('no-v1.json'), config(server.url.replace(/\/v1$/, '')));
}, 300_000);
afterAll(async () => {
  await server?.close();
  rmSync(directory, { recursive: true, force: true });
});

const collect = (...args: string[]) => runCommand(registerCollectCommand, ['collect', '--provider', path('provider.json'), ...args]);

describe('collect on a file of another format', () => {
  it('refuses a GSM8K file read as --suite jsonl, naming the suite to pass', async () => {
    const outcome = await collect('--tasks', path('gsm8k.jsonl'), '--suite', 'jsonl', '--db', path('a.db'));
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toContain('gsm8k.jsonl looks like a gsm8k file, which --suite jsonl reads with the wrong fields and grader');
    expect(outcome.stderr).toContain('pass --suite gsm8k');
  });

  it('suggests the suite of a GSM8K file given without --suite, in one line instead of an error per line', async () => {
    const outcome = await collect('--tasks', path('gsm8k.jsonl'), '--db', path('b.db'));
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toMatch(/^orchrm: \S+gsm8k\.jsonl is not in orchrm's own task format .*: it looks like a gsm8k file; pass --suite gsm8k/);
    expect(outcome.stderr).not.toContain('expected string');
  });

  it('warns when no task of a jsonl file has a gold answer', async () => {
    const outcome = await collect('--tasks', path('unlabelled.jsonl'), '--suite', 'jsonl', '--db', path('c.db'));
    expect(outcome.stderr).toContain('no task has a gold answer in the field "answer", so no episode can be graded');
  });
});

it('tells a baseURL without /v1 (404 on /chat/completions) to add /v1', async () => {
  const outcome = await runCommand(registerCollectCommand, ['collect', '--provider', path('no-v1.json'), '--tasks', path('gsm8k.jsonl'), '--suite', 'gsm8k', '--limit', '1', '--db', path('d.db')]);
  expect(outcome.stderr).toContain(`the base URL has no /v1, under which OpenAI-compatible servers (Ollama, vLLM, llama.cpp server) serve their API: add /v1, "baseURL": "${server.url}" in the provider config`);
  expect(outcome.stderr).not.toContain('check the model name');
});

it('says a --db that is not SQLite is not a database, as a usage error', async () => {
  const outcome = await collect('--tasks', path('gsm8k.jsonl'), '--suite', 'gsm8k', '--limit', '1', '--db', path('notes.txt'));
  expect(outcome.exitCode).toBe(2);
  expect(outcome.stderr).toContain('notes.txt is not an SQLite database');
  expect(outcome.stderr).not.toContain('unexpected error');
});

describe('command-line mistakes of the built CLI', () => {
  beforeAll(ensureBuilt, 300_000);

  it('exit 2, as --help says, for an unknown option of every command, and 0 for --help', async () => {
    const run = promisify(execFile);
    const outcomes = await Promise.all(
      COMMAND_CATALOG.map(async ({ name }) => {
        const refused = await run(process.execPath, [BUILT_CLI, name, '--no-such-flag'], { cwd: directory }).then(() => 0, (error: { code: number }) => error.code);
        const help = await run(process.execPath, [BUILT_CLI, name, '--help'], { cwd: directory }).then(() => 0, (error: { code: number }) => error.code);
        return { name, refused, help };
      }),
    );
    expect(outcomes).toEqual(COMMAND_CATALOG.map(({ name }) => ({ name, refused: 2, help: 0 })));
  }, 300_000);

  it('exit 2 for a refused flag value and an unknown command', async () => {
    const run = promisify(execFile);
    const code = (args: string[]) => run(process.execPath, [BUILT_CLI, ...args], { cwd: directory }).then(() => 0, (error: { code: number }) => error.code);
    expect(await code(['collect', '--count', 'many'])).toBe(2);
    expect(await code(['colect'])).toBe(2);
    expect(await code(['rm', 'train', '--epochs'])).toBe(2);
  }, 300_000);
});
