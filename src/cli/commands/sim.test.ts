import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerSimCommand, simCommand, type SimCommandIo } from './sim.js';

afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

/** Streams that collect text, a shutdown the test triggers, and a wait for the ready line. */
function testIo() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = { stdout: '', stderr: '' };
  stdout.on('data', (chunk: Buffer) => (text.stdout += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (text.stderr += chunk.toString()));
  let shutDown: (reason: string) => void = () => undefined;
  const shutdown = new Promise<string>((resolve) => (shutDown = resolve));
  const ready = new Promise<string>((resolve) => {
    stdout.on('data', () => {
      const match = /listening on (\S+)\n/.exec(text.stdout);
      if (match?.[1]) resolve(match[1]);
    });
  });
  return { io: { stdout, stderr, untilShutdown: () => shutdown }, text, shutDown, ready };
}

function program(io: SimCommandIo): Command {
  const root = new Command('orchrm').exitOverride();
  registerSimCommand(root, io);
  return root;
}

describe('orchrm sim scenarios', () => {
  it('lists every built-in scenario with its family mix, as text and as JSON', async () => {
    const { io, text } = testIo();
    await program(io).parseAsync(['sim', 'scenarios', '--json'], { from: 'user' });
    const rows = JSON.parse(text.stdout) as { name: string; description: string; families: Record<string, number> }[];
    expect(rows.map((row) => row.name)).toStrictEqual(['default', 'arith', 'multihop', 'hotpot', 'control']);
    expect(rows.find((row) => row.name === 'default')?.families).toStrictEqual({ arith: 0.5, multihop: 0.5 });
    expect(rows.find((row) => row.name === 'hotpot')?.families).toStrictEqual({ hotpot: 1 });
    expect(rows.every((row) => row.description.length > 0)).toBe(true);

    const plain = testIo();
    await program(plain.io).parseAsync(['sim', 'scenarios'], { from: 'user' });
    expect(plain.text.stdout).toContain('default   arith 50%, multihop 50%\n');
    expect(plain.text.stdout).toContain('control   arith 50%, multihop 50%\n');
  });

  it('keeps one sim group that other modules can extend', () => {
    const { io } = testIo();
    const root = program(io);
    simCommand(root).command('calibrate');
    expect(root.commands.filter((command) => command.name() === 'sim')).toHaveLength(1);
    expect(simCommand(root).commands.map((command) => command.name())).toStrictEqual(['scenarios', 'serve', 'calibrate']);
  });
});

describe('orchrm sim serve', () => {
  it('listens for SIGINT/SIGTERM before it prints the "listening on" line', async () => {
    const { io, shutDown, ready } = testIo();
    const order: string[] = [];
    io.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().startsWith('listening on')) order.push('readiness line');
    });
    const running = program({
      ...io,
      untilShutdown: () => {
        order.push('listening for signals');
        return io.untilShutdown();
      },
    }).parseAsync(['sim', 'serve', '--port', '0'], { from: 'user' });
    await ready;
    shutDown('test over');
    await running;
    expect(order).toEqual(['listening for signals', 'readiness line']);
  });

  it.each([
    [['--scenario', 'no-such-scenario'], /no scenario named "no-such-scenario"/],
    [['--scenario', 'constructor'], /no scenario named "constructor"/],
    [['--rate-limit-rate', '0.7', '--drop-rate', '0.6'], /the fault flags is invalid:[\s\S]*must sum to at most 1/],
    [['--latency-median-ms', '50', '--latency-p99-ms', '10'], /p99Ms/],
  ])('fails with a clear message for %j', async (flags, message) => {
    const { io, text } = testIo();
    const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await program(io).parseAsync(['sim', 'serve', '--port', '0', ...flags], { from: 'user' });
    expect(process.exitCode).toBe(2);
    expect(errors.mock.calls.map(([chunk]) => String(chunk)).join('')).toMatch(message);
    expect(text.stdout).toBe('');
  });

  it.each([
    [['--drop-rate', '1.5'], /--drop-rate must be a number from 0 to 1, got "1.5"/],
    [['--port', '70000'], /--port must be an integer from 0 to 65535/],
    [['--retry-after-s', '-1'], /--retry-after-s must be a number >= 0/],
  ])('rejects the flag value in %j', async (flags, message) => {
    const { io } = testIo();
    const root = program(io);
    simCommand(root).commands.forEach((command) => command.exitOverride().configureOutput({ writeErr: () => undefined }));
    await expect(root.parseAsync(['sim', 'serve', ...flags], { from: 'user' })).rejects.toThrow(message);
  });

  it('refuses a non-loopback --host without a token, and warns with --allow-unauthenticated (issue 23)', async () => {
    const { io, text } = testIo();
    const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await program(io).parseAsync(['sim', 'serve', '--host', '0.0.0.0', '--scenario', 'missing'], { from: 'user' });
    expect(process.exitCode).toBe(2);
    expect(errors.mock.calls.map(([chunk]) => String(chunk)).join('')).toMatch(/--host 0\.0\.0\.0 is not loopback and no --token-env is set.*--allow-unauthenticated/);
    expect(text.stderr).not.toContain('warning');
    process.exitCode = undefined;
    await program(io).parseAsync(['sim', 'serve', '--host', '0.0.0.0', '--allow-unauthenticated', '--scenario', 'missing'], { from: 'user' });
    expect(text.stderr).toMatch(/warning: --host 0\.0\.0\.0 is not loopback and --allow-unauthenticated is set/);
  });

  it('serves the scenario until shut down, then reports what it served', async () => {
    const { io, text, shutDown, ready } = testIo();
    const running = program(io).parseAsync(['sim', 'serve', '--port', '0'], { from: 'user' });
    const url = await ready;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const client = new OpenAI({ baseURL: url, apiKey: 'unused' });
    const models = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models).toContain('sim-embedding');
    const embedding = await client.embeddings.create({ model: 'sim-embedding', input: 'hello' });
    expect(embedding.data[0]?.embedding).toHaveLength(256);
    shutDown('test finished');
    await running;
    expect(text.stderr).toContain('orchrm sim: test finished; closing after in-flight requests finish');
    expect(text.stderr).toMatch(/served 0 chat completion\(s\), 1 embedding request\(s\)/);
  });

  it('serves the judge model its docs name, and with --token-env refuses requests without the token', async () => {
    const { io, text, shutDown, ready } = testIo();
    const running = program({ ...io, env: { SIM_TOKEN: 's3cret' } }).parseAsync(['sim', 'serve', '--port', '0', '--token-env', 'SIM_TOKEN'], { from: 'user' });
    const url = await ready;
    expect(text.stderr).toContain('auth         bearer token from SIM_TOKEN');
    const stranger = new OpenAI({ baseURL: url, apiKey: 'wrong', maxRetries: 0 });
    await expect(stranger.models.list()).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    const client = new OpenAI({ baseURL: url, apiKey: 's3cret', maxRetries: 0 });
    const models = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models).toContain('sim-judge');
    const judged = await client.chat.completions.create({
      model: 'sim-judge',
      messages: [{ role: 'user', content: 'Judge: plans\nCandidates: 2\n\nQuestion:\n  What is 2 + 2?\n\nCandidate 1:\n  cot\n\nCandidate 2:\n  sc\n\nInstructions:\n  pick one' }],
    });
    expect(judged.model).toBe('sim-judge');
    expect(judged.choices[0]?.message.content).toMatch(/<choice>[12]<\/choice>/);
    shutDown('test finished');
    await running;
  });

  it('refuses --token-env naming an unset variable', async () => {
    const { io } = testIo();
    const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await program({ ...io, env: {} }).parseAsync(['sim', 'serve', '--port', '0', '--token-env', 'NOT_SET'], { from: 'user' });
    expect(process.exitCode).toBe(2);
    expect(errors.mock.calls.map(([chunk]) => String(chunk)).join('')).toMatch(/--token-env names NOT_SET, but that environment variable is not set/);
  });
});
