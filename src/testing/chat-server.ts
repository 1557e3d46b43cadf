import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { HttpError, parseJsonBody, readRequestBody, sendJson, startHttpServer } from '../core/index.js';

/**
 * A real OpenAI-compatible chat server on 127.0.0.1 for tests: it speaks
 * `POST /v1/chat/completions` and `GET /v1/models`, and a handler scripts each answer,
 * including faults (error statuses, dropped connections, garbled or truncated bodies, delays).
 */

const ContentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

/** The request fields the server checks; anything else a client sends is kept as is. */
export const ChatCompletionBodySchema = z.looseObject({
  model: z.string().min(1),
  messages: z
    .array(
      z.looseObject({
        role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
        content: z.union([z.string(), z.array(ContentPartSchema), z.null()]),
      }),
    )
    .min(1),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
  seed: z.number().int().optional(),
  stop: z.union([z.string(), z.array(z.string())]).optional(),
  stream: z.literal(false, 'this test server does not stream; send stream: false').optional(),
  response_format: z
    .union([
      z.object({ type: z.enum(['text', 'json_object']) }),
      z.object({
        type: z.literal('json_schema'),
        json_schema: z.looseObject({ name: z.string(), schema: z.record(z.string(), z.unknown()).optional() }),
      }),
    ])
    .optional(),
});
export type ChatCompletionBody = z.infer<typeof ChatCompletionBodySchema>;

/** Token counts the server reports, in orchrm's naming; `totalTokens` defaults to the sum. */
export interface ChatServerUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens?: number;
}

/** Wait before answering (any reply kind). @unit milliseconds */
interface Delay {
  delayMs?: number;
}

/** A normal completion. */
export interface TextReply extends Delay {
  text: string;
  /**
   * Reported usage. Omitted: the server reports a whitespace word count of prompt and reply.
   * `null`: the response has no `usage` field (as some local servers do).
   */
  usage?: ChatServerUsage | null;
  /** @default the requested model */
  model?: string;
  /** @default 'stop' */
  finishReason?: string;
  /** Sent as `message.reasoning_content`, as DeepSeek and vLLM's reasoning parsers return it. */
  reasoningContent?: string;
  /** Sent as `message.reasoning`, as vLLM (0.10 and later) and OpenRouter return it. */
  reasoning?: string;
}

/** An HTTP error; `body` defaults to an OpenAI-style `{error: {message, type}}`. */
export interface ErrorReply extends Delay {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** Drops the connection without answering. */
export interface DestroyReply extends Delay {
  destroy: true;
}

/**
 * Sends `rawBody` verbatim as JSON (for garbled bodies). With `declaredLength` larger than the
 * body, the server announces that length, sends the body, then closes: a truncated response.
 */
export interface RawReply extends Delay {
  rawBody: string;
  status?: number;
  headers?: Record<string, string>;
  declaredLength?: number;
}

export type ChatServerReply = TextReply | ErrorReply | DestroyReply | RawReply;

/** Decides the answer to the `requestIndex`-th (0-based) valid chat request. */
export type ChatServerHandler = (
  body: ChatCompletionBody,
  requestIndex: number,
  context: { headers: IncomingHttpHeaders },
) => ChatServerReply | Promise<ChatServerReply>;

export interface ChatServerOptions {
  /** @default echoes the last message: `{text: 'echo: <content>'}` */
  handler?: ChatServerHandler;
  /** Ids listed by `GET /v1/models`. @default ['test-model'] */
  models?: string[];
}

export interface ChatServer {
  /** Base URL to give an OpenAI client, ending in `/v1`. */
  url: string;
  /** Every valid chat request body, in arrival order (index = requestIndex). */
  requests: ChatCompletionBody[];
  /** Chat requests being answered right now. */
  readonly inFlight: number;
  /** Highest number of chat requests answered at the same time so far. */
  readonly maxInFlight: number;
  /** Stops listening and drops open connections; calling it again does nothing. */
  close(): Promise<void>;
}

/**
 * Starts the server on 127.0.0.1 and a free port.
 *
 * @example
 * const server = await startChatServer({ handler: (body, index) => (index === 0 ? { status: 429, headers: { 'retry-after': '0' } } : { text: '42' }) });
 * const client = new OpenAI({ baseURL: server.url, apiKey: 'test' });
 * await server.close();
 */
export async function startChatServer(options: ChatServerOptions = {}): Promise<ChatServer> {
  const { handler = echoHandler, models = ['test-model'] } = options;
  const requests: ChatCompletionBody[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method === 'GET' && path === '/v1/models') {
      sendJson(response, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'orchrm' })) });
      return;
    }
    if (request.method !== 'POST' || path !== '/v1/chat/completions') throw new HttpError(404, null, `no route for ${request.method} ${path}`, { type: 'invalid_request_error' });
    // A test server: no body limit.
    const text = await readRequestBody(request, { maxBodyBytes: Number.POSITIVE_INFINITY });
    const json = parseJsonBody(text, () => new HttpError(400, null, 'request body is not valid JSON', { type: 'invalid_request_error' }));
    const parsed = ChatCompletionBodySchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HttpError(400, null, `${issue?.path.join('.') || 'body'}: ${issue?.message}`, { type: 'invalid_request_error' });
    }
    const requestIndex = requests.push(parsed.data) - 1;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let counted = true;
    const release = () => {
      if (counted) inFlight--;
      counted = false;
    };
    response.once('close', release);
    try {
      const reply = await handler(parsed.data, requestIndex, { headers: request.headers });
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      sendReply(response, reply, parsed.data, requestIndex);
    } finally {
      release();
    }
  }

  const server = await startHttpServer({
    handle: route,
    onError(error, _request, response) {
      if (error instanceof HttpError) {
        sendJson(response, error.status, errorBody(error.message, error.details.type ?? 'invalid_request_error'), error.details.headers);
        return;
      }
      // The handler threw: a bug in the test. `x-should-retry: false` keeps clients from hiding it.
      sendJson(response, 500, errorBody(`chat-server handler threw: ${String(error)}`, 'server_error'), { 'x-should-retry': 'false' });
    },
    // Tests close at once: open connections are dropped, not drained.
    closeTimeoutMs: 0,
    // Idle keep-alive sockets stay open until the client closes them (or `close()`). With node's
    // 5 s default the server may close a socket just as the client sends on it; under load the
    // client then sees "other side closed" and retries, and tests that count calls see it.
    serverOptions: { keepAliveTimeout: 0 },
  });
  return {
    url: `${server.url}/v1`,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    // Idempotent, so tests may close in both the test and afterEach.
    close: () => server.close(),
  };
}

const echoHandler: ChatServerHandler = (body) => {
  const last = body.messages.at(-1)?.content;
  return { text: `echo: ${typeof last === 'string' ? last : JSON.stringify(last)}` };
};

function sendReply(response: ServerResponse, reply: ChatServerReply, body: ChatCompletionBody, requestIndex: number): void {
  // The client may have given up while we waited (timeout tests): nothing left to answer.
  if (response.destroyed) return;
  if ('destroy' in reply) {
    response.socket?.destroy();
    return;
  }
  if ('rawBody' in reply) {
    const headers: Record<string, string | number> = { 'content-type': 'application/json', ...reply.headers };
    if (reply.declaredLength !== undefined) {
      headers['content-length'] = reply.declaredLength;
      response.writeHead(reply.status ?? 200, headers);
      response.write(reply.rawBody, () => response.socket?.destroy());
      return;
    }
    response.writeHead(reply.status ?? 200, headers);
    response.end(reply.rawBody);
    return;
  }
  if ('status' in reply) {
    sendJson(response, reply.status, reply.body ?? errorBody(`scripted ${reply.status}`, 'scripted_error'), reply.headers);
    return;
  }
  sendJson(response, 200, completionBody(reply, body, requestIndex));
}

function completionBody(reply: TextReply, body: ChatCompletionBody, requestIndex: number): Record<string, unknown> {
  const completion: Record<string, unknown> = {
    id: `chatcmpl-test-${requestIndex}`,
    object: 'chat.completion',
    created: 0,
    model: reply.model ?? body.model,
    choices: [{ index: 0, message: replyMessage(reply), finish_reason: reply.finishReason ?? 'stop' }],
  };
  if (reply.usage === null) return completion;
  const usage = reply.usage ?? { promptTokens: countWords(body.messages.map((message) => JSON.stringify(message.content)).join(' ')), completionTokens: countWords(reply.text) };
  completion.usage = {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens ?? usage.promptTokens + usage.completionTokens,
  };
  return completion;
}

function replyMessage(reply: TextReply): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: reply.text };
  if (reply.reasoningContent !== undefined) message.reasoning_content = reply.reasoningContent;
  if (reply.reasoning !== undefined) message.reasoning = reply.reasoning;
  return message;
}

/**
 * Wraps a handler so the server answers like an OpenAI reasoning model (o-series, gpt-5): a
 * request with `max_tokens`, with a `temperature` other than 1, or with `stop` gets the 400 that
 * OpenAI sends for it, with its error body (`message`, `type`, `param`, `code`); any other request
 * goes to `handler`.
 *
 * @example
 * const server = await startChatServer({ models: ['gpt-5-mini'], handler: openAiReasoningModel(() => ({ text: '42' })) });
 */
export function openAiReasoningModel(handler: ChatServerHandler): ChatServerHandler {
  return (body, requestIndex, context) => {
    const refusal = reasoningModelRefusal(body);
    return refusal ?? handler(body, requestIndex, context);
  };
}

function reasoningModelRefusal(body: ChatCompletionBody): ErrorReply | undefined {
  const invalid = (message: string, param: string, code: string): ErrorReply => ({
    status: 400,
    body: { error: { message, type: 'invalid_request_error', param, code } },
  });
  if (body.max_tokens !== undefined) {
    return invalid("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', 'unsupported_parameter');
  }
  if (body.temperature !== undefined && body.temperature !== 1) {
    return invalid(`Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`, 'temperature', 'unsupported_value');
  }
  if (body.stop !== undefined) return invalid("Unsupported parameter: 'stop' is not supported with this model.", 'stop', 'unsupported_parameter');
  return undefined;
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

function errorBody(message: string, type: string): { error: { message: string; type: string } } {
  return { error: { message, type } };
}
