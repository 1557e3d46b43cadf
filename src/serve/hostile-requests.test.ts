import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../core/errors.js';
import { startOpenAiCompatibleServer, type OpenAiCompatibleServer } from '../sim/server/index.js';
import { createFunctionProvider } from '../testing/index.js';
import { createRefusalLogger } from './create-refusal-logger.js';
import { startRewardServer, type RewardServer, type RewardServerOptions } from './start-reward-server.js';
import { createLengthRewardModel, createSlowRewardModel } from './test-fixtures/fake-reward-models.js';
import { rawExchange } from './test-fixtures/raw-http.js';

/**
 * Issue 23: what a hostile client can send before and around authentication, on real servers on
 * 127.0.0.1: huge headers, bodies that together would exhaust memory, control bytes meant for the
 * log, and servers exposed without a token.
 */

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function start(options: Partial<RewardServerOptions> = {}): Promise<RewardServer> {
  const server = await startRewardServer({ model: createLengthRewardModel(), ...options });
  closers.push(() => server.close());
  return server;
}

async function startSim(options: { host?: string; bearerToken?: string; allowUnauthenticated?: boolean } = {}): Promise<OpenAiCompatibleServer> {
  const server = await startOpenAiCompatibleServer({ provider: createFunctionProvider(() => 'unused'), models: ['m'], ...options });
  closers.push(() => server.close());
  return server;
}

/** A request with one header of `headerBytes` bytes (a bearer token of spaces, as in the ReDoS). */
const bigHeaderRequest = (path: string, headerBytes: number) => `GET ${path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer x${' '.repeat(headerBytes)}y\r\n\r\n`;

describe('request heads', () => {
  it('answers 431 in JSON to headers over 8 KiB, on the reward server and the simulation server', async () => {
    const server = await start({ token: 's3cret' });
    // node's own default (16 KiB) let a 15 KB header through, to the quadratic token regex.
    const reward = await rawExchange(server.port, (write) => write(bigHeaderRequest('/metrics', 12 * 1024)));
    expect(reward.status).toBe(431);
    expect(JSON.parse(reward.body).error.code).toBe('headers_too_large');
    const small = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer s3cret' } });
    expect(small.status).toBe(200);

    const sim = await startSim();
    const simAnswer = await rawExchange(sim.port, (write) => write(bigHeaderRequest('/v1/models', 12 * 1024)));
    expect(simAnswer.status).toBe(431);
  });
});

describe('request bodies in flight', () => {
  it('answers 503 with retry-after to a body that would pass the bytes in flight, and serves it once they are released', async () => {
    const model = createSlowRewardModel(400);
    const server = await start({ model, maxBodyBytes: 1_000_000, maxBodyBytesInFlight: 1_500_000 });
    const body = JSON.stringify({ task: 'x', plans: ['a'.repeat(800_000)] });
    const post = () => fetch(`${server.url}/v1/score`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const first = post();
    await expect.poll(() => model.started, { interval: 5 }).toBe(1);
    // The first body (800 KB) is held while its request runs: a second one would pass 1.5 MB.
    const second = await post();
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe('server_busy');
    expect((await first).status).toBe(200);
    await expect.poll(() => server.app.metrics.totals().requests).toBeGreaterThanOrEqual(2);
    const third = await post();
    expect(third.status).toBe(200);
    expect(server.app.metrics.requestCount('/v1/score', 503)).toBe(1);
  });

  it('counts streamed (chunked) bodies as they arrive', async () => {
    const model = createSlowRewardModel(400);
    const server = await start({ model, maxBodyBytes: 1_000_000, maxBodyBytesInFlight: 1_500_000 });
    const body = JSON.stringify({ task: 'x', plans: ['a'.repeat(800_000)] });
    const chunked = (text: string) => `POST /v1/score HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n${text.length.toString(16)}\r\n${text}\r\n0\r\n\r\n`;
    const first = rawExchange(server.port, (write) => write(chunked(body)));
    await expect.poll(() => model.started, { interval: 5 }).toBe(1);
    const second = await rawExchange(server.port, (write) => write(chunked(body)));
    expect(second.status).toBe(503);
    expect((await first).status).toBe(200);
  });

  it('refuses a bytes-in-flight limit below the largest body, which could never be served', async () => {
    await expect(startRewardServer({ model: createLengthRewardModel(), maxBodyBytes: 2_000_000, maxBodyBytesInFlight: 1_000_000 })).rejects.toThrow(/must be at least the largest body/);
  });
});

describe('the refusal log', () => {
  it('escapes control characters a request carries, so each refusal stays one plain line', async () => {
    const lines: string[] = [];
    const logRefusal = createRefusalLogger((line) => lines.push(line));
    const server = await start({ events: (event) => (event.type === 'request-refused' ? logRefusal(event) : undefined) });
    // JSON.parse quotes the body in its complaint, and the complaint is logged.
    for (const body of ['\u001b[2J\u001b[31mEVIL', '\r\nrefused POST /forged']) {
      const answer = await fetch(`${server.url}/v1/score`, { method: 'POST', body });
      expect(answer.status).toBe(400);
    }
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
    }
    expect(lines[0]).toContain('\\x1b[2J\\x1b[31mE');
    expect(lines[1]).toContain('\\x0d\\x0arefused PO');
  });
});

describe('servers exposed without a token', () => {
  it('refuse to listen on a non-loopback host unless told the clients are authenticated elsewhere', async () => {
    await expect(startRewardServer({ model: createLengthRewardModel(), host: '0.0.0.0' })).rejects.toThrow(UserError);
    await expect(startRewardServer({ model: createLengthRewardModel(), host: '0.0.0.0' })).rejects.toThrow(/refusing to listen on 0\.0\.0\.0 without authentication.*--allow-unauthenticated/);
    await expect(startOpenAiCompatibleServer({ provider: createFunctionProvider(() => 'unused'), models: ['m'], host: '0.0.0.0' })).rejects.toThrow(/refusing to listen on 0\.0\.0\.0 without authentication/);

    const withToken = await start({ host: '0.0.0.0', token: 's3cret' });
    expect((await fetch(`http://127.0.0.1:${withToken.port}/v1/score`, { method: 'POST', body: '{}' })).status).toBe(401);
    const allowed = await start({ host: '0.0.0.0', allowUnauthenticated: true });
    expect((await fetch(`http://127.0.0.1:${allowed.port}/healthz`)).status).toBe(200);
    const sim = await startSim({ host: '0.0.0.0', bearerToken: 's3cret' });
    expect((await fetch(`http://127.0.0.1:${sim.port}/v1/models`)).status).toBe(401);
  });
});
