import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { MODEL_FORMAT, MODEL_FORMAT_VERSION } from '../rm/model-file.js';
import { writeSafetensors } from '../rm/safetensors.js';
import { openStore } from '../store/index.js';
import { registerCollectCommand } from './commands/collect.js';
import { registerImportCommand } from './commands/import.js';
import { registerPairsCommand } from './commands/pairs.js';
import { registerRmCommand } from './commands/rm.js';
import { registerTasksCommand } from './commands/tasks.js';

/**
 * Issue 9, hostile files: every file the CLI reads, fed wrong types, missing fields, truncated
 * text, an empty file and invalid UTF-8, must end in exit code 2 with one message naming the
 * file (and the field, where there is one), no stack trace, nothing on stdout and nothing written.
 */

let directory: string;
const path = (name: string) => join(directory, name);

interface CliOutcome {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
}

/** Runs the real commands in-process, capturing what they print. */
async function runCli(args: string[]): Promise<CliOutcome> {
  const program = new Command('orchrm').exitOverride();
  registerTasksCommand(program);
  registerCollectCommand(program);
  registerPairsCommand(program);
  registerRmCommand(program);
  registerImportCommand(program);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const capture = (into: string[]) => (chunk: unknown) => {
    into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
    return true;
  };
  const outSpy = vi.spyOn(process.stdout, 'write').mockImplementation(capture(stdout));
  const errSpy = vi.spyOn(process.stderr, 'write').mockImplementation(capture(stderr));
  process.exitCode = undefined;
  try {
    await program.parseAsync(args, { from: 'user' });
    return { exitCode: process.exitCode, stdout: stdout.join(''), stderr: stderr.join('') };
  } finally {
    outSpy.mockRestore();
    errSpy.mockRestore();
    process.exitCode = undefined;
  }
}

const jsonl = (...records: unknown[]) => records.map((record) => JSON.stringify(record)).join('\n');
const INVALID_UTF8 = Buffer.concat([Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('{"id": "a"}\n')]);
const PROVIDER = { type: 'openai', baseURL: 'http://127.0.0.1:9/v1', models: { orchestrator: 'm', worker: 'm', judge: 'm' } };
/** A model file without tensors (its integrity hash is that of no bytes): `metadata` over a valid header, minus `omit`. */
function modelFile(metadata: Record<string, string>, omit: string[] = []): Buffer {
  const base = { format: MODEL_FORMAT, format_version: String(MODEL_FORMAT_VERSION), tensors_sha256: createHash('sha256').digest('hex') };
  const entries = Object.entries({ ...base, encoder_spec: '{}', head_config: '{}', ...metadata }).filter(([key]) => !omit.includes(key));
  return writeSafetensors([], Object.fromEntries(entries));
}
/** A linear model over `bits:8,structure` with these 256 weights, its integrity hash right (as `saveRewardModel` writes it). */
function linearModelFile(weights: Float64Array, metadata: Record<string, string> = {}): Buffer {
  const tensors: Parameters<typeof writeSafetensors>[0] = [
    ['linear.weight', { dtype: 'F64', shape: [256, 1], data: weights }],
    ['linear.bias', { dtype: 'F64', shape: [1], data: Float64Array.of(0) }],
  ];
  const hash = createHash('sha256').update(Buffer.from(weights.buffer)).update(Buffer.alloc(8)).digest('hex');
  return writeSafetensors(tensors, {
    format: MODEL_FORMAT,
    format_version: String(MODEL_FORMAT_VERSION),
    encoder_spec: JSON.stringify({ hashBits: 8, features: [{ kind: 'structure' }] }),
    head_config: '{"kind": "linear"}',
    training_config: '{}',
    metrics: '{}',
    tensors_sha256: hash,
    ...metadata,
  });
}
const withNaN = new Float64Array(256).fill(0.5);
withNaN[3] = NaN;
const TENSOR_FILE = writeSafetensors([['weights', { dtype: 'F64', shape: [16], data: new Float64Array(16) }]], { format: MODEL_FORMAT });
const PLANS = '{"dom": "low", "nodes": [{"id": "A", "agent": "cot", "input": ""}], "answer": "A"}';

interface HostileCase {
  name: string;
  /** File content (written to `file`). */
  content: string | Buffer;
  /** The command line; `file` is the hostile file, `db` the store that must stay untouched. */
  args: (file: string, db: string) => string[];
  /** Besides the file name, the message must contain each of these (field names, fixes). */
  mentions?: string[];
  /** The store exists before the command and must be byte-identical after it. */
  existingDb?: boolean;
}

const kinds: Record<string, { args: HostileCase['args']; cases: Omit<HostileCase, 'args'>[] }> = {
  'tasks check': {
    args: (file) => ['tasks', 'check', file],
    cases: [
      { name: 'empty', content: '' },
      { name: 'truncated', content: '{"id": "a", "question": "What is', mentions: ['line 1'] },
      { name: 'wrong types', content: jsonl({ id: 'a', question: 5 }), mentions: ['question'] },
      { name: 'missing field', content: jsonl({ id: 'a', answer: '1' }), mentions: ['question'] },
      { name: 'invalid UTF-8', content: INVALID_UTF8 },
    ],
  },
  'collect --tasks': {
    args: (file, db) => ['collect', '--tasks', file, '--provider', path('provider.json'), '--db', db],
    cases: [
      { name: 'empty', content: '' },
      { name: 'truncated', content: `${jsonl({ id: 'a', question: 'q' })}\n{"id": "b", "quest`, mentions: ['line 2'] },
      { name: 'wrong types', content: jsonl({ id: 'a', question: ['q'] }), mentions: ['question'] },
      { name: 'missing field', content: jsonl({ id: 'a' }), mentions: ['question'] },
      { name: 'invalid UTF-8', content: INVALID_UTF8 },
    ],
  },
  'collect --scenario': {
    args: (file, db) => ['collect', '--scenario', file, '--count', '2', '--db', db],
    cases: [
      { name: 'empty', content: '' },
      { name: 'truncated', content: '{"families": {"arith": {"weight": 1', mentions: ['fix the JSON'] },
      { name: 'wrong types', content: JSON.stringify({ families: { arith: { depth: 'deep' } } }), mentions: ['depth'] },
      { name: 'unknown field', content: JSON.stringify({ famlies: {} }), mentions: ['famlies'] },
      { name: 'invalid UTF-8', content: INVALID_UTF8 },
    ],
  },
  'collect --provider': {
    args: (file, db) => ['collect', '--scenario', 'arith', '--count', '2', '--provider', file, '--db', db],
    cases: [
      { name: 'empty', content: '' },
      { name: 'truncated', content: JSON.stringify(PROVIDER).slice(0, 30) },
      { name: 'wrong types', content: JSON.stringify({ ...PROVIDER, timeoutMs: '60s' }), mentions: ['timeoutMs'] },
      { name: 'missing field', content: JSON.stringify({ type: 'openai' }), mentions: ['models'] },
      { name: 'out of range', content: JSON.stringify({ ...PROVIDER, maxRetries: 99 }), mentions: ['maxRetries'] },
      { name: 'invalid UTF-8', content: INVALID_UTF8 },
    ],
  },
  'pairs import': {
    args: (file, db) => ['pairs', 'import', file, '--db', db],
    cases: [
      { name: 'empty', content: '' },
      { name: 'truncated', content: '{"input": "q", "chosen": "{\\"dom', mentions: ['line 1'] },
      { name: 'wrong types', content: jsonl({ input: 'q', chosen: 5, rejected: 'r', source: 's' }), mentions: ['chosen'] },
      { name: 'missing field', content: jsonl({ input: 'q', chosen: 'c', source: 's' }), mentions: ['rejected'] },
      { name: 'invalid UTF-8', content: INVALID_UTF8 },
      { name: 'into an existing store', content: jsonl({ input: 'q', chosen: 5 }), existingDb: true },
    ],
  },
  'rm score --model': {
    args: (file) => ['rm', 'score', '--model', file, '--task', 'What is 2 + 3?', '--plans', path('plans.txt')],
    cases: [
      { name: 'empty', content: '' },
      { name: 'truncated', content: TENSOR_FILE.subarray(0, TENSOR_FILE.length - 40), mentions: ['truncated'] },
      { name: 'JSON instead of safetensors', content: JSON.stringify({ kind: 'bt', weights: [0.1] }), mentions: ['not a valid safetensors file'] },
      { name: 'wrong types', content: modelFile({ head_config: '{"kind": 5}' }), mentions: ['head_config.kind', 'retrain'] },
      { name: 'missing field', content: modelFile({}, ['encoder_spec']), mentions: ['encoder_spec', 'retrain'] },
      { name: 'another format', content: modelFile({ format: 'someone-else' }), mentions: ['not an orchrm reward model'] },
      { name: 'invalid UTF-8', content: INVALID_UTF8 },
      // Issue 23: rm score printed `null` and exited 0.
      { name: 'NaN weights', content: linearModelFile(withNaN), mentions: ['tensor linear.weight holds NaN at index 3', 'retrain'] },
      // Issue 23: the head was allocated before its shape was checked (a RangeError here).
      { name: 'a head far larger than its tensors', content: linearModelFile(new Float64Array(256), { encoder_spec: '{"hashBits": 24, "features": [{"kind": "structure"}]}', head_config: '{"kind": "mlp", "hidden": 1024}' }), mentions: ['does not match its config'] },
      // Issue 23: the file chose where each task and plan was posted, with the user's API key.
      {
        name: 'an embedding endpoint',
        content: linearModelFile(new Float64Array(256), { encoder_spec: '{"hashBits": 8, "features": [{"kind": "embed", "model": "m", "dimensions": 4, "of": "plan", "baseURL": "http://127.0.0.1:9/v1"}]}' }),
        mentions: ['features[0].baseURL', 'may not choose where requests go', '--embeddings-url'],
      },
    ],
  },
  import: {
    args: (file, db) => ['import', file, '--db', db],
    cases: [
      { name: 'empty', content: '' },
      { name: 'truncated', content: '{"task": {"id": "a", "question": "q"}, "plan', mentions: ['line 1'] },
      { name: 'wrong types', content: jsonl({ task: 'a', plan: 5 }) },
      { name: 'missing field', content: jsonl({}) },
      { name: 'invalid UTF-8', content: INVALID_UTF8 },
      { name: 'into an existing store', content: jsonl({ task: 'a' }), existingDb: true },
    ],
  },
};

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-hostile-'));
  writeFileSync(path('provider.json'), JSON.stringify(PROVIDER));
  writeFileSync(path('plans.txt'), PLANS);
  openStore(path('existing.db')).close();
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe.each(Object.entries(kinds))('%s', (kind, { args, cases }) => {
  test.each(cases)('$name', async ({ name, content, mentions = [], existingDb = false }) => {
    const slug = `${kind}-${name}`.replace(/[^a-z0-9]+/gi, '-');
    const file = path(`${slug}.input`);
    writeFileSync(file, content);
    const db = existingDb ? path('existing.db') : path(`${slug}.db`);
    const before = existingDb ? digest(db) : undefined;

    const outcome = await runCli(args(file, db));

    expect(outcome.exitCode, outcome.stderr).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr.match(/orchrm:/g), outcome.stderr).toHaveLength(1);
    expect(outcome.stderr).toContain(file);
    for (const mention of mentions) expect(outcome.stderr).toContain(mention);
    expect(outcome.stderr).not.toMatch(/\n\s+at |unexpected error|ZodError/);
    if (existingDb) expect(digest(db)).toBe(before);
    else expect(existsSync(db)).toBe(false);
  });
});
