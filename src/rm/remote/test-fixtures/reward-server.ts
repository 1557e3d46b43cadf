import type { IncomingMessage } from 'node:http';
import { HttpError, parseJsonBody, readRequestBody, sendJson, startHttpServer } from '../../../core/index.js';

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

export interface FixtureServerOptions {
  /**
   * What `GET /version` answers, as vLLM's server does (`{"version": "0.13.0"}`); `null` for a
   * 404 (a server without the route). Not recorded in `requests`. @default '0.13.0'
   */
  version?: string | null;
}

/**
 * A real HTTP server on 127.0.0.1 that answers each request with `respond(body, attempt)`
 * (attempt counts from 1 over the server's life), so tests can speak a protocol correctly, send
 * it wrong, fail with 5xx, stall or cut the connection.
 */
export async function startRewardServer(respond: (body: unknown, attempt: number) => ServerAction, options: FixtureServerOptions = {}): Promise<RewardServer> {
  const { version = '0.13.0' } = options;
  const requests: RecordedRequest[] = [];
  const server = await startHttpServer({
    async handle(request, response) {
      if (request.method === 'GET' && request.url?.endsWith('/version')) {
        request.resume();
        sendJson(response, version === null ? 404 : 200, version === null ? { detail: 'Not Found' } : { version });
        return;
      }
      const text = await readRequestBody(request, { maxBodyBytes: Number.POSITIVE_INFINITY });
      const body: unknown = text === '' ? undefined : parseJsonBody(text, (reason) => new HttpError(400, 'invalid_json', `the fixture server got a body that is not JSON (${reason})`));
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
    },
    onError(error, _request, response) {
      sendJson(response, error instanceof HttpError ? error.status : 500, { detail: String(error) });
    },
    // Tests close at once: open (and hanging) connections are dropped, not drained.
    closeTimeoutMs: 0,
  });
  return {
    url: (path) => `${server.url}${path}`,
    requests,
    close: () => server.close(),
  };
}

/** A deterministic stand-in reward: more agents in the plan text, higher score; invalid plans low. */
export function fixtureReward(text: string): number {
  if (text.includes('INVALID PLAN')) return -5;
  return (text.match(/<agent>/g) ?? []).length + text.length / 1e4;
}

/**
 * A vLLM `/classify` reply for the request, in the shape of vLLM's `ClassificationResponse`
 * (one `{index, label, probs, num_classes}` per input), for a one-label Bradley-Terry head whose
 * raw logit is `fixtureReward` of the input text (or of a chat request's messages joined):
 * - `new` (0.11.1 and later): `use_activation: false` gives the raw logit;
 * - `activation` (0.10.0 to 0.11.0): reads `activation`, ignores `use_activation`, so a client
 *   that sends only `use_activation` gets the sigmoid of the logit;
 * - `softmax` (before 0.10): no per-request switch; the softmax over one label is 1.0.
 */
export function vllmClassifyReply(body: unknown, behaviour: 'new' | 'activation' | 'softmax' = 'new'): unknown {
  const { model, input, messages, use_activation: useActivation, activation } = body as {
    model: string;
    input?: string[];
    messages?: { content: string }[];
    use_activation?: boolean;
    activation?: boolean;
  };
  const texts = input ?? [messages?.map((message) => message.content).join('') ?? ''];
  const activate = behaviour === 'new' ? useActivation !== false : behaviour === 'activation' ? activation !== false : true;
  const output = (logit: number) => (!activate ? logit : behaviour === 'softmax' ? 1 : 1 / (1 + Math.exp(-logit)));
  return {
    id: 'classify-fixture',
    object: 'list',
    created: 1_745_383_213,
    model,
    data: texts.map((text, index) => ({ index, label: 'LABEL_0', probs: [output(fixtureReward(text))], num_classes: 1 })),
    usage: { prompt_tokens: 10, total_tokens: 10, completion_tokens: 0, prompt_tokens_details: null },
  };
}

/**
 * A vLLM `/pooling` reply (`PoolingResponse`: one `{index, object: "pooling", data}` per input)
 * for a token-level reward model: `data` holds one `[reward]` per token of the input (here, one
 * per character of the rendered text, or of a chat request's conversation rendered as ChatML
 * without a generation prompt), the reward at token t being `fixtureReward` of the text up to t.
 */
export function vllmPoolingReply(body: unknown): unknown {
  const { model, input, messages } = body as { model: string; input?: string[]; messages?: { role: string; content: string }[] };
  const texts = input ?? [messages?.map((message) => `<|im_start|>${message.role}\n${message.content}<|im_end|>\n`).join('') ?? ''];
  return {
    id: 'pool-fixture',
    object: 'list',
    created: 1_745_383_213,
    model,
    data: texts.map((text, index) => ({ index, object: 'pooling', data: Array.from({ length: Math.min(text.length, 64) }, (_, position) => [fixtureReward(text.slice(0, text.length - Math.min(text.length, 64) + position + 1))]) })),
    usage: { prompt_tokens: 10, total_tokens: 10, completion_tokens: 0, prompt_tokens_details: null },
  };
}

/** An OpenRLHF `/get_reward` reply for the request. */
export function openRlhfReply(body: unknown): unknown {
  const { query } = body as { query: string[] };
  const rewards = query.map(fixtureReward);
  return { rewards, scores: rewards, extra_logs: { dummy_scores: rewards } };
}
