import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fixture server does with one request. */
export type ServerAction =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { status: number; rawBody: string }
  | 'hang'
  | 'drop';

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface RewardServer {
  url: (path: string) => string;
  requests: RecordedRequest[];
  close: () => Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 that answers each request with `respond(body, attempt)`
 * (attempt counts from 1 over the server's life), so tests can speak a protocol correctly, send
 * it wrong, fail with 5xx, stall or cut the connection.
 */
export async function startRewardServer(respond: (body: unknown, attempt: number) => ServerAction): Promise<RewardServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text === '' ? undefined : JSON.parse(text);
      requests.push({ path: request.url ?? '', headers: request.headers, body });
      const action = respond(body, requests.length);
      if (action === 'hang') return;
      if (action === 'drop') {
        request.socket.destroy();
        return;
      }
      const payload = 'rawBody' in action ? action.rawBody : JSON.stringify(action.body);
      response.writeHead(action.status, { 'content-type': 'application/json', ...('headers' in action ? action.headers : {}) });
      response.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A deterministic stand-in reward: more agents in the plan text, higher score; invalid plans low. */
export function fixtureReward(text: string): number {
  if (text.includes('INVALID PLAN')) return -5;
  return (text.match(/<agent>/g) ?? []).length + text.length / 1e4;
}

/** A vLLM `/classify` reply for the request, as vLLM 0.9+ sends it (one output per input). */
export function vllmClassifyReply(body: unknown): unknown {
  const { model, input } = body as { model: string; input: string[] };
  return {
    id: 'classify-fixture',
    object: 'list',
    created: 1_745_383_213,
    model,
    data: input.map((text, index) => ({ index, label: 'LABEL_0', probs: [fixtureReward(text)], num_classes: 1 })),
    usage: { prompt_tokens: 10, total_tokens: 10, completion_tokens: 0, prompt_tokens_details: null },
  };
}

/** An OpenRLHF `/get_reward` reply for the request. */
export function openRlhfReply(body: unknown): unknown {
  const { query } = body as { query: string[] };
  const rewards = query.map(fixtureReward);
  return { rewards, scores: rewards, extra_logs: { dummy_scores: rewards } };
}
