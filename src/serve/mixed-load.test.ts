import { Agent, request } from 'node:http';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRewardServer, type RewardServer } from './start-reward-server.js';
import { createLengthRewardModel } from './test-fixtures/fake-reward-models.js';

interface Sent {
  path: string;
  body: Buffer;
  headers: Record<string, string>;
  /** Scores a valid request must get back; undefined for an invalid one. */
  expected?: number[];
}

const HEADERS = { 'content-type': 'application/json', authorization: 'Bearer load' };
const MAX_BODY_BYTES = 64 * 1024;

function post(agent: Agent, port: number, sent: Sent): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const outgoing = request({ agent, host: '127.0.0.1', port, method: 'POST', path: sent.path, headers: { ...sent.headers, 'content-length': sent.body.length } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', (error) => resolve({ status: 0, body: error.message }));
    outgoing.end(sent.body);
  });
}

/** The i-th request of the mix: every tenth is one of six kinds of invalid request. */
function mixedRequest(index: number): Sent {
  const plans = Array.from({ length: 8 }, (_, plan) => 'p'.repeat(1 + ((index + plan) % 13)));
  const valid: Sent = { path: '/v1/score', body: Buffer.from(JSON.stringify({ task: '', plans })), headers: HEADERS, expected: plans.map((plan) => plan.length) };
  if (index % 10 !== 0) return valid;
  const invalid = (body: string | Buffer, overrides: Partial<Sent> = {}): Sent => ({ path: '/v1/score', body: Buffer.from(body), headers: HEADERS, ...overrides });
  switch ((index / 10) % 6) {
    case 0:
      return invalid('{"plans": [');
    case 1:
      return invalid(JSON.stringify({ task: 1, plans: [2] }));
    case 2:
      return invalid(JSON.stringify({ task: '', plans: Array.from({ length: 65 }, () => 'p') }));
    case 3:
      return invalid(Buffer.alloc(MAX_BODY_BYTES + 1, 0x20));
    case 4:
      return { ...valid, expected: undefined, headers: { 'content-type': 'application/json' } };
    default:
      return invalid('{}', { path: '/v2/score' });
  }
}

describe('a short mixed load (the long one is benchRewardServer)', () => {
  let server: RewardServer;
  beforeAll(async () => {
    server = await startRewardServer({ model: createLengthRewardModel(), token: 'load', maxPlans: 64, maxBodyBytes: MAX_BODY_BYTES });
  });
  afterAll(() => server?.close());

  it('answers 600 requests on 32 keep-alive connections, 10% invalid: every valid one 200 with its scores, no 5xx', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 32 });
    const limit = pLimit(32);
    const requests = Array.from({ length: 600 }, (_, index) => mixedRequest(index));
    const answers = await Promise.all(requests.map((sent) => limit(() => post(agent, server.port, sent))));
    agent.destroy();
    const statuses = new Map<number, number>();
    answers.forEach((answer, index) => {
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const expected = requests[index]!.expected;
      if (expected) expect(JSON.parse(answer.body)).toEqual({ scores: expected });
    });
    expect(Object.fromEntries(statuses)).toEqual({ 200: 540, 400: 20, 401: 10, 404: 10, 413: 20 });
    expect(server.app.metrics.totals()).toEqual({ requests: 600, clientErrors: 60, serverErrors: 0, plansScored: 4320, unscoredQueries: 0 });
  });
});
