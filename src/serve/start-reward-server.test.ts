import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../core/errors.js';
import { createOpenRlhfRewardModel } from '../rm/remote/index.js';
import { startRewardServer, type RewardServer, type RewardServerOptions } from './start-reward-server.js';
import { createLengthRewardModel, createSlowRewardModel } from './test-fixtures/fake-reward-models.js';
import { rawExchange } from './test-fixtures/raw-http.js';

const servers: RewardServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: Partial<RewardServerOptions> = {}): Promise<RewardServer> {
  const server = await startRewardServer({ model: createLengthRewardModel(), ...options });
  servers.push(server);
  return server;
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

/** Streams `totalBytes` of body in 64 KiB chunks without a content-length (chunked), as a client that does not know the size. */
function postStreamed(port: number, totalBytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/v1/score' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const writeMore = () => {
      while (sent < totalBytes) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', writeMore);
      }
      request.end();
    };
    writeMore();
  });
}

describe('startRewardServer', () => {
  it('binds 127.0.0.1 by default and serves every route over HTTP', async () => {
    const server = await start();
    expect(server.host).toBe('127.0.0.1');
    expect(await postJson(`${server.url}/v1/score`, { task: '', plans: ['ab', 'abcd'] })).toEqual({ status: 200, json: { scores: [2, 4] } });
    expect(await postJson(`${server.url}/get_reward`, { query: ['T:ab'], prompts: ['T:'], labels: [''] })).toMatchObject({ status: 200, json: { rewards: [1.8] } });
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok', model: 'length' });
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('orchrm_plans_scored_total 3');
    expect(metrics).toContain('orchrm_http_requests_total{route="/get_reward",status="200"} 1');
  });

  it('answers orchrm\'s own OpenRLHF client with the scores the model gives locally, behind a token', async () => {
    const model = createLengthRewardModel();
    const server = await start({ model, token: 'tok-123' });
    const plans = ['{"dom":"low","nodes":[{"id":"A","agent":"cot","input":""}],"edges":[],"answer":"A"}', 'not a plan'];
    const unauthorized = createOpenRlhfRewardModel({ url: `${server.url}/get_reward`, maxRetries: 0 }, { env: {} });
    await expect(unauthorized.score('What is 2+2?', plans)).rejects.toThrow(/401/);
    const client = createOpenRlhfRewardModel({ url: `${server.url}/get_reward` }, { env: { ORCHRM_REWARD_API_KEY: 'tok-123' } });
    const remote = await client.score('What is 2+2?', plans);
    // The client sends plans as written (its default, as pairs export writes them).
    const local = await createLengthRewardModel().score('What is 2+2?', plans);
    expect(remote).toEqual(local);
    expect(model.calls.at(-1)?.task).toBe('What is 2+2?');
  });

  it('answers 413 to a body over the limit, declared or streamed, and keeps serving', async () => {
    const server = await start({ maxBodyBytes: 100_000 });
    const declared = await rawExchange(server.port, (write) => write('POST /v1/score HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100001\r\n\r\n{'));
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error).toMatchObject({ code: 'body_too_large' });
    const streamed = await postStreamed(server.port, 1_000_000);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body).error.message).toContain('larger than this server\'s limit of 100000 bytes');
    expect((await postJson(`${server.url}/v1/score`, { task: '', plans: ['a'] })).status).toBe(200);
  });

  it('names the error code and field in the status line, and reports the client\'s address', async () => {
    const refusals: { remoteAddress?: string; code: string }[] = [];
    const server = await start({ events: (event) => event.type === 'request-refused' && refusals.push(event.refusal) });
    const body = JSON.stringify({ query: ['P1 plan', 'P2 plan'], prompts: ['P1'] });
    const answer = await rawExchange(server.port, (write) => write(`POST /get_reward HTTP/1.1\r\nhost: x\r\ncontent-length: ${body.length}\r\n\r\n${body}`));
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request (length_mismatch prompts)');
    expect(refusals).toEqual([expect.objectContaining({ code: 'length_mismatch', remoteAddress: '127.0.0.1' })]);
  });

  it('answers 408 to a client that sends its body too slowly, or its headers', async () => {
    const server = await start({ requestTimeoutMs: 200 });
    const slowBody = await rawExchange(server.port, (write) => write('POST /v1/score HTTP/1.1\r\nhost: x\r\ncontent-length: 50\r\n\r\n{"task": "'));
    expect(slowBody.status).toBe(408);
    expect(slowBody.headers.connection).toBe('close');
    expect(JSON.parse(slowBody.body).error).toMatchObject({ code: 'request_timeout' });
    const slowHeaders = await rawExchange(server.port, (write) => write('POST /v1/score HTTP/1.1\r\nhost: x\r\n'));
    expect(slowHeaders.status).toBe(408);
    expect(server.app.metrics.requestCount('/v1/score', 408)).toBe(1);
    expect(server.app.metrics.requestCount('other', 408)).toBe(1);
  });

  it('answers 400 in JSON to malformed HTTP, and a crafted request never takes the process down', async () => {
    const server = await start();
    const garbage = await rawExchange(server.port, (write) => write('HELLO\x00 /v1/score HTTP/9\r\n\r\n'));
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body).error.code).toBe('malformed_request');
    const badPrefix = await rawExchange(server.port, (write) => write('POST /get_reward HTTP/1.1\r\nhost: x\r\ncontent-length: 7\r\n\r\n{"query'));
    expect(badPrefix.status).toBe(400);
    expect((await postJson(`${server.url}/v1/score`, { task: '', plans: ['a'] })).status).toBe(200);
  });

  it('closes gracefully: in-flight requests finish, new connections are refused', async () => {
    const model = createSlowRewardModel(150);
    const server = await start({ model });
    const inFlight = postJson(`${server.url}/v1/score`, { task: '', plans: ['a', 'b'] });
    await expect.poll(() => model.started, { interval: 5 }).toBe(1);
    const closed = server.close();
    expect(await inFlight).toEqual({ status: 200, json: { scores: [0, 1] } });
    await closed;
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('aborts the model\'s work when the client goes away', async () => {
    const model = createSlowRewardModel(10_000);
    const server = await start({ model });
    const controller = new AbortController();
    const request = fetch(`${server.url}/v1/score`, { method: 'POST', body: JSON.stringify({ task: '', plans: ['a'] }), signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await expect(request).rejects.toThrow();
    await expect.poll(() => model.aborted).toBe(1);
  });

  it('turns a busy port into a UserError that says what to do', async () => {
    const server = await start();
    await expect(startRewardServer({ model: createLengthRewardModel(), port: server.port })).rejects.toThrow(UserError);
    await expect(startRewardServer({ model: createLengthRewardModel(), port: server.port })).rejects.toThrow(/already in use; choose another --port/);
  });
});
