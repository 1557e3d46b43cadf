import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveRewardModel, syntheticPairs, syntheticPlan, trainRewardModel } from '../../rm/index.js';
import { readSafetensors, writeSafetensors } from '../../rm/safetensors.js';
import { Rng } from '../../core/rng.js';
import { formatPlanXml } from '../../plan/index.js';
import { createLengthRewardModel } from '../../serve/test-fixtures/fake-reward-models.js';
import { rawExchange } from '../../serve/test-fixtures/raw-http.js';
import { registerServeCommand, type ServeCommandIo } from './serve.js';

afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

/** Streams that collect text, a shutdown the test triggers, a fake model loader, and a wait for the ready line. */
function testIo(env: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = { stdout: '', stderr: '' };
  stdout.on('data', (chunk: Buffer) => (text.stdout += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (text.stderr += chunk.toString()));
  let shutDown: (reason: string) => void = () => undefined;
  const shutdown = new Promise<string>((resolve) => (shutDown = resolve));
  const loaded: string[] = [];
  const ready = new Promise<Record<string, unknown>>((resolve) => {
    stdout.on('data', () => {
      const line = text.stdout.split('\n')[0];
      if (text.stdout.includes('\n') && line) resolve(JSON.parse(line) as Record<string, unknown>);
    });
  });
  const io: ServeCommandIo = {
    stdout,
    stderr,
    env,
    untilShutdown: () => shutdown,
    loadModel: async (path) => {
      loaded.push(path);
      return createLengthRewardModel();
    },
  };
  return { io, text, shutDown, ready, loaded };
}

function program(io: ServeCommandIo): Command {
  const root = new Command('orchrm').exitOverride();
  registerServeCommand(root, io);
  return root;
}

describe('orchrm serve', () => {
  it('serves the model until shutdown, behind the token from --token-env, then reports totals', async () => {
    const { io, text, shutDown, ready, loaded } = testIo({ RM_TOKEN: 'abc' });
    const run = program(io).parseAsync(['serve', '--model', 'rm.safetensors', '--port', '0', '--token-env', 'RM_TOKEN', '--json'], { from: 'user' });
    const { url, host, model } = (await ready) as { url: string; host: string; model: string };
    expect({ host, model, loaded }).toEqual({ host: '127.0.0.1', model: 'length', loaded: ['rm.safetensors'] });
    const body = JSON.stringify({ task: '', plans: ['abc'] });
    expect((await fetch(`${url}/v1/score`, { method: 'POST', body })).status).toBe(401);
    const response = await fetch(`${url}/v1/score`, { method: 'POST', body, headers: { authorization: 'Bearer abc' } });
    expect(await response.json()).toEqual({ scores: [3] });
    shutDown('test over');
    await run;
    expect(process.exitCode).toBeUndefined();
    expect(text.stderr).toContain('auth    bearer token from $RM_TOKEN');
    expect(text.stderr).toContain('test over; closing after in-flight requests finish');
    expect(text.stderr).toContain('answered 2 request(s) (1 4xx, 0 5xx), scored 1 plan(s)');
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('loads a real model file and serves the scores it gives in process', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'orchrm-serve-'));
    try {
      const { model } = await trainRewardModel(syntheticPairs({ pairs: 200, seed: 3 }), { seed: 3 });
      const path = join(directory, 'rm.safetensors');
      await saveRewardModel(model, path);
      const { io, shutDown, ready } = testIo();
      const { loadModel: _fake, ...realIo } = io;
      const root = new Command('orchrm').exitOverride();
      registerServeCommand(root, realIo);
      const run = root.parseAsync(['serve', '--model', path, '--port', '0', '--json'], { from: 'user' });
      const { url } = (await ready) as { url: string };
      const rng = new Rng(5);
      const task = 'How many apples are left after 3 are sold?';
      const plans = [formatPlanXml(syntheticPlan(rng, ['sc'])), formatPlanXml(syntheticPlan(rng, ['search', 'cot'])), 'not a plan'];
      const response = await fetch(`${url}/v1/score`, { method: 'POST', body: JSON.stringify({ task, plans }) });
      const { scores } = (await response.json()) as { scores: number[] };
      expect(scores).toEqual(await model.score(task, plans));
      expect(new Set(scores).size).toBe(3);
      shutDown('done');
      await run;
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('after answering 413 to a client still sending its body, shutdown leaves nothing that holds the process (issue 15), and the refusal is logged', async () => {
    // What keeps a node process alive: ref'ed timers and sockets. Before the fix a 30 s request
    // timer outlived the shutdown, so `orchrm serve` printed its summary and stayed up.
    const holders = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout' || name.startsWith('TCP'));
    const before = holders();
    const { io, text, shutDown, ready } = testIo();
    const run = program(io).parseAsync(['serve', '--model', 'rm.safetensors', '--port', '0', '--json', '--max-body-bytes', '1000'], { from: 'user' });
    const { port } = (await ready) as { port: number };
    // Declares 1 MB, sends 10 KB, and keeps the connection open: the server answers 413 and drains.
    const answer = await rawExchange(port, (write) => write(`POST /get_reward HTTP/1.1\r\nhost: x\r\ncontent-length: 1000000\r\n\r\n${' '.repeat(10_000)}`));
    expect(answer.status).toBe(413);
    shutDown('SIGTERM received');
    await run;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(holders()).toEqual(before);
    expect(text.stderr).toContain('orchrm serve: refused POST /get_reward from 127.0.0.1: 413 body_too_large: the request body (declared 1000000 bytes)');
    expect(text.stderr).toContain('answered 1 request(s) (1 4xx, 0 5xx)');
  });

  it('listens for SIGINT/SIGTERM before it prints the readiness line (issue 24)', async () => {
    const { io, shutDown } = testIo();
    const order: string[] = [];
    let shutdownRequested: () => void = () => undefined;
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (chunk.toString().startsWith('{')) order.push('readiness line');
        done();
      },
    });
    const run = program({
      ...io,
      stdout,
      untilShutdown: () => {
        order.push('listening for signals');
        return new Promise((resolve) => (shutdownRequested = () => resolve('test over')));
      },
    }).parseAsync(['serve', '--model', 'rm.safetensors', '--port', '0', '--json'], { from: 'user' });
    await vi.waitFor(() => expect(order).toContain('readiness line'));
    shutdownRequested();
    shutDown('unused');
    await run;
    expect(order).toEqual(['listening for signals', 'readiness line']);
  });

  it('a real process sent SIGTERM the moment its --json line is read closes cleanly', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'orchrm-serve-sigterm-'));
    try {
      const { model } = await trainRewardModel(syntheticPairs({ pairs: 60, seed: 4 }), { seed: 4, maxEpochs: 2, tune: false });
      const path = join(directory, 'rm.safetensors');
      await saveRewardModel(model, path);
      const main = new URL('../main.ts', import.meta.url).pathname;
      const runs = await Promise.all(
        [0].map(
          () =>
            new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve, reject) => {
              const child = spawn(process.execPath, ['--import', 'tsx', main, 'serve', '--model', path, '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
              let stdout = '';
              let stderr = '';
              child.stdout.on('data', (chunk: Buffer) => {
                stdout += chunk.toString();
                if (stdout.includes('\n') && !child.killed) child.kill('SIGTERM');
              });
              child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
              child.on('error', reject);
              child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
            }),
        ),
      );
      for (const { code, signal, stderr } of runs) {
        expect({ code, signal }).toEqual({ code: 0, signal: null });
        expect(stderr).toContain('orchrm serve: SIGTERM received; closing after in-flight requests finish');
        expect(stderr).toContain('answered 0 request(s)');
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }, 60_000);

  it('reports an unreadable model file as a usage error', async () => {
    const { io, text } = testIo();
    const { loadModel: _fake, ...realIo } = io;
    const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const root = new Command('orchrm').exitOverride();
    registerServeCommand(root, realIo);
    await root.parseAsync(['serve', '--model', '/nonexistent/rm.safetensors', '--port', '0'], { from: 'user' });
    expect(process.exitCode).toBe(2);
    expect(errors.mock.calls.map(([chunk]) => String(chunk)).join('')).toContain('cannot read model file /nonexistent/rm.safetensors (ENOENT)');
    expect(text.stdout).toBe('');
  });

  it('refuses a model file with a NaN weight instead of serving it healthy and answering 500 (issue 23)', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'orchrm-serve-nan-'));
    try {
      // saveRewardModel refuses a diverged model, so the file is made as a downloaded one would
      // arrive: a valid model's tensors with one NaN, re-signed so that only the NaN is wrong.
      const { model } = await trainRewardModel(syntheticPairs({ pairs: 60, seed: 3 }), { seed: 3, maxEpochs: 1, tune: false });
      const path = join(directory, 'nan.safetensors');
      await saveRewardModel(model, path);
      const saved = readSafetensors(await readFile(path));
      saved.tensors.get('linear.weight')!.data[0] = Number.NaN;
      const unsigned = writeSafetensors([...saved.tensors], saved.metadata);
      const dataHash = createHash('sha256').update(unsigned.subarray(8 + Number(unsigned.readBigUInt64LE(0)))).digest('hex');
      await writeFile(path, writeSafetensors([...saved.tensors], { ...saved.metadata, tensors_sha256: dataHash }));
      const { io, text, ready, shutDown } = testIo();
      const { loadModel: _fake, ...realIo } = io;
      const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      const root = new Command('orchrm').exitOverride();
      registerServeCommand(root, realIo);
      const run = root.parseAsync(['serve', '--model', path, '--port', '0', '--json'], { from: 'user' });
      const outcome = await Promise.race([run.then(() => 'ended'), ready.then(() => 'listening')]);
      if (outcome === 'listening') {
        shutDown('test');
        await run;
      }
      expect(outcome).toBe('ended');
      expect(process.exitCode).toBe(2);
      expect(errors.mock.calls.map(([chunk]) => String(chunk)).join('')).toMatch(/tensor linear\.weight holds NaN at index 0.*retrain it/);
      expect(text.stdout).toBe('');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('refuses to start when --token-env names an unset variable', async () => {
    const { io, loaded } = testIo();
    const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await program(io).parseAsync(['serve', '--model', 'rm.safetensors', '--port', '0', '--token-env', 'NOT_SET'], { from: 'user' });
    expect(process.exitCode).toBe(2);
    expect(errors.mock.calls.map(([chunk]) => String(chunk)).join('')).toContain('--token-env names NOT_SET, but that environment variable is not set or empty');
    expect(loaded).toEqual([]);
  });

  it('refuses a non-loopback --host without a token unless --allow-unauthenticated says so (issue 23)', async () => {
    const { io, text, ready, loaded, shutDown } = testIo();
    const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const run = program(io).parseAsync(['serve', '--model', 'rm.safetensors', '--port', '0', '--json', '--host', '0.0.0.0'], { from: 'user' });
    // Before the fix the server started (with a warning) and waited for clients.
    const outcome = await Promise.race([run.then(() => 'ended'), ready.then(() => 'listening')]);
    if (outcome === 'listening') {
      shutDown('test');
      await run;
    }
    expect(outcome).toBe('ended');
    expect(process.exitCode).toBe(2);
    expect(errors.mock.calls.map(([chunk]) => String(chunk)).join('')).toMatch(/--host 0\.0\.0\.0 is not loopback and no --token-env is set.*--allow-unauthenticated/);
    expect(loaded).toEqual([]);
    expect(text.stdout).toBe('');
  });

  it('serves on a non-loopback --host with --allow-unauthenticated, and warns', async () => {
    const { io, text, ready, shutDown } = testIo();
    const run = program(io).parseAsync(['serve', '--model', 'rm.safetensors', '--port', '0', '--json', '--host', '0.0.0.0', '--allow-unauthenticated'], { from: 'user' });
    const { port } = (await ready) as { port: number };
    expect(text.stderr).toContain('warning: --host 0.0.0.0 is not loopback and --allow-unauthenticated is set');
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    shutDown('SIGTERM received');
    await run;
  });

  it.each([
    [['--port', '70000'], /--port must be an integer from 0 to 65535/],
    [['--max-plans', '0'], /--max-plans must be an integer >= 1/],
  ])('rejects the flag value in %j', async (flags, message) => {
    const { io } = testIo();
    const root = program(io);
    root.commands.forEach((command) => command.exitOverride().configureOutput({ writeErr: () => undefined }));
    await expect(root.parseAsync(['serve', '--model', 'm', ...flags], { from: 'user' })).rejects.toThrow(message);
  });
});
