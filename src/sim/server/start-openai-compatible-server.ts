import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerTokenChecker, HttpError, type ModelSlot, parseJsonBody, readRequestBody, sendJson, sendJsonText, startHttpServer } from '../../core/index.js';
import type { ChatProvider } from '../../llm/index.js';
import { ChatCompletionBodySchema, toChatRequest } from './chat-completion-body.js';
import { chatCompletionResponse } from './chat-completion-response.js';
import { defaultModelSlot } from './default-model-slot.js';
import { EmbeddingsBodySchema } from './embeddings-body.js';
import { embeddingsResponse } from './embeddings-response.js';
import type { FaultConfigInput } from './fault-config.js';
import { createFaultInjector } from './fault-injector.js';
import { DEFAULT_EMBEDDING_DIMENSIONS, DEFAULT_EMBEDDING_MODEL } from './hashed-embedding.js';
import { parseRequestBody } from './parse-request-body.js';
import { sendFault } from './send-fault.js';
import { emptyServerStats, type ServerStats } from './server-stats.js';
import { sendOpenAiError, toHttpError } from './to-http-error.js';

/** Largest request body accepted when the server options name none: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface OpenAiCompatibleServerOptions {
  /** Answers every chat completion. */
  provider: ChatProvider;
  /** Chat models served: listed by `GET /v1/models`, and the only ones chat completions accept. */
  models: readonly string[];
  /** The slot a model answers as. @default `defaultModelSlot` (sim-orchestrator*, sim-judge*, else worker) */
  modelSlot?: (model: string) => ModelSlot;
  /** @default '127.0.0.1' (loopback: the server has no authentication) */
  host?: string;
  /** @default 0 (an ephemeral port; read it from `server.port`) */
  port?: number;
  /** Faults injected into chat completions and embeddings. @default none */
  faults?: FaultConfigInput;
  /** Seed of the fault decisions. @default 0 */
  faultSeed?: number;
  /** Model name of the hashed embeddings. @default 'sim-embedding' */
  embeddingModel?: string;
  /** Embedding width when a request names none. @default 256 */
  embeddingDimensions?: number;
  /** Largest request body accepted (413 beyond). @default 4 MiB @unit bytes */
  maxBodyBytes?: number;
  /** How long `close()` lets in-flight requests finish before dropping them. @default 10000 @unit milliseconds */
  closeTimeoutMs?: number;
  /**
   * When set, every request must send `authorization: Bearer <token>` (as OpenAI's API wants its
   * key) or gets OpenAI's 401 `invalid_api_key`. @default none (no authentication)
   */
  bearerToken?: string;
  /**
   * Serve on a non-loopback `host` without a `bearerToken`. Off, that refuses to start: anyone who
   * can reach the address could use the server. @default false
   */
  allowUnauthenticated?: boolean;
}

export interface OpenAiCompatibleServer {
  /** Base URL for an OpenAI client, ending in `/v1`. */
  url: string;
  host: string;
  port: number;
  /** A snapshot of what the server has done so far. */
  readonly stats: ServerStats;
  /** Stops accepting connections, lets in-flight requests finish, then closes; idempotent. */
  close(): Promise<void>;
}

type Route = 'models' | 'model' | 'chatCompletions' | 'embeddings';
const ROUTE_METHODS: Record<Route, string> = { models: 'GET', model: 'GET', chatCompletions: 'POST', embeddings: 'POST' };

/**
 * Serves any ChatProvider over the OpenAI HTTP API: `POST /v1/chat/completions`,
 * `GET /v1/models`, `GET /v1/models/{id}` and `POST /v1/embeddings` (deterministic hashed
 * embeddings), with seeded fault injection so clients' retry paths can be exercised for real.
 *
 * @example
 * const server = await startOpenAiCompatibleServer({ provider, models: ['sim-worker'], faults: { rateLimitRate: 0.1, retryAfterS: 0 } });
 * const client = new OpenAI({ baseURL: server.url, apiKey: 'unused' });
 * await server.close();
 */
export async function startOpenAiCompatibleServer(options: OpenAiCompatibleServerOptions): Promise<OpenAiCompatibleServer> {
  const {
    provider,
    models,
    modelSlot = defaultModelSlot,
    host = '127.0.0.1',
    port = 0,
    faults = {},
    faultSeed = 0,
    embeddingModel = DEFAULT_EMBEDDING_MODEL,
    embeddingDimensions = DEFAULT_EMBEDDING_DIMENSIONS,
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    closeTimeoutMs = 10_000,
  } = options;
  const injector = createFaultInjector(faults, faultSeed);
  const retryAfterS = injector.config.retryAfterS;
  const chatModels = new Set(models);
  const isAuthorized = options.bearerToken === undefined ? undefined : bearerTokenChecker(options.bearerToken);
  const stats = emptyServerStats();
  let faultableRequests = 0;
  /** Requests held by the `hang` fault; closing drops them rather than waiting for clients to give up. */
  const hung = new Set<ServerResponse>();
  let closing = false;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (isAuthorized !== undefined && !isAuthorized(request.headers.authorization)) {
      throw new HttpError(401, 'invalid_api_key', 'Incorrect API key provided: send "authorization: Bearer <token>" with the token this server was started with', { type: 'invalid_request_error' });
    }
    const route = routeOf(path);
    if (!route) throw new HttpError(404, 'unknown_url', `no route for ${request.method} ${path}; this server serves GET /v1/models, POST /v1/chat/completions and POST /v1/embeddings`, { type: 'invalid_request_error' });
    const method = ROUTE_METHODS[route];
    if (request.method !== method) {
      throw new HttpError(405, 'method_not_allowed', `${request.method} is not allowed on ${path}; use ${method}`, { type: 'invalid_request_error', headers: { allow: method } });
    }
    if (route === 'models' || route === 'model') {
      const listed = [...models, embeddingModel].map((id) => ({ id, object: 'model', created: 0, owned_by: 'orchrm-sim' }));
      if (route === 'models') {
        stats.requests.models++;
        sendJson(response, 200, { object: 'list', data: listed });
        return;
      }
      const id = decodePathSegment(path.slice('/v1/models/'.length));
      const model = listed.find((entry) => entry.id === id);
      if (!model) throw unknownModel(id, [...models, embeddingModel]);
      stats.requests.models++;
      sendJson(response, 200, model);
      return;
    }
    // Abort the provider's work when the client goes away before the answer is written.
    const controller = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) controller.abort(new Error('the client closed the connection'));
    });
    const json = await readJsonBody(request, maxBodyBytes);
    if (route === 'embeddings') {
      const body = parseRequestBody(EmbeddingsBodySchema, json);
      if (body.model !== embeddingModel) throw unknownModel(body.model, [embeddingModel], 'embedding ');
      stats.requests.embeddings++;
      await answerWithFaults(response, async () => JSON.stringify(embeddingsResponse(body, embeddingDimensions)));
      return;
    }
    const body = parseRequestBody(ChatCompletionBodySchema, json);
    if (!chatModels.has(body.model)) throw unknownModel(body.model, models);
    const completionIndex = stats.requests.chatCompletions++;
    await answerWithFaults(response, async () => {
      const answer = await provider.chat(toChatRequest(body, modelSlot(body.model), controller.signal));
      return JSON.stringify(chatCompletionResponse(answer, body.model, completionIndex));
    });
  }

  /** Draws this request's fault and delay, then answers normally or with the fault. */
  async function answerWithFaults(response: ServerResponse, answer: () => Promise<string>): Promise<void> {
    const { fault, delayMs, cutFraction } = injector.decide(faultableRequests++);
    if (fault) stats.faults[fault]++;
    if (delayMs > 0) {
      stats.latency.delayedRequests++;
      stats.latency.totalDelayMs += delayMs;
      stats.latency.maxDelayMs = Math.max(stats.latency.maxDelayMs, delayMs);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    if (response.destroyed) return;
    // Rejections, drops and hangs happen before the model runs, as a rate limiter or a dying proxy would.
    if (fault === 'hang') {
      // Once closing, a held request would only delay the close: drop it at once.
      if (closing) response.socket?.destroy();
      hung.add(response);
      response.once('close', () => hung.delete(response));
    }
    if (fault === 'rateLimit' || fault === 'serverError' || fault === 'drop' || fault === 'hang') {
      sendFault(response, fault, { retryAfterS, bodyText: '', cutFraction });
      return;
    }
    const bodyText = await answer();
    if (fault) sendFault(response, fault, { retryAfterS, bodyText, cutFraction });
    else sendJsonText(response, 200, bodyText);
  }

  const server = await startHttpServer({
    host,
    port,
    closeTimeoutMs,
    authenticated: options.bearerToken !== undefined,
    ...(options.allowUnauthenticated !== undefined && { allowUnauthenticated: options.allowUnauthenticated }),
    authenticationHint: { token: '--token-env, or the bearerToken option', allowUnauthenticated: '--allow-unauthenticated (allowUnauthenticated: true)' },
    handle,
    onError(error, _request, response) {
      // The client left (and the provider was aborted): no one to answer, nothing failed.
      if (response.destroyed) return;
      const httpError = toHttpError(error);
      if (httpError.status < 500) stats.invalid++;
      else stats.failed++;
      sendOpenAiError(response, httpError);
    },
    onClosing() {
      closing = true;
      for (const response of hung) response.socket?.destroy();
    },
  });

  return {
    url: `${server.url}/v1`,
    host: server.host,
    port: server.port,
    get stats() {
      return structuredClone(stats);
    },
    close: () => server.close(),
  };
}

/**
 * Reads and parses a JSON request body of at most `maxBodyBytes`: a 413 as soon as the declared
 * or received size passes the limit, a 400 when the body is not JSON.
 */
async function readJsonBody(request: IncomingMessage, maxBodyBytes: number): Promise<unknown> {
  const text = await readRequestBody(request, {
    maxBodyBytes,
    tooLarge: () => new HttpError(413, 'request_too_large', `request body is larger than ${maxBodyBytes} bytes; send a smaller request (fewer or shorter messages or inputs)`, { type: 'invalid_request_error' }),
    clientClosed: () => new HttpError(400, null, 'the client closed the connection before sending the whole body', { type: 'invalid_request_error' }),
    busy: (limitBytes) => new HttpError(503, 'server_busy', `the server is already holding ${limitBytes} bytes of request bodies; retry shortly`, { type: 'server_error', headers: { 'retry-after': '1' } }),
  });
  return parseJsonBody(text, (reason) => new HttpError(400, 'invalid_json', `request body is not valid JSON (${reason}); send a JSON object`, { type: 'invalid_request_error' }));
}

function routeOf(path: string): Route | undefined {
  if (path === '/v1/models') return 'models';
  if (path.startsWith('/v1/models/') && path.length > '/v1/models/'.length) return 'model';
  if (path === '/v1/chat/completions') return 'chatCompletions';
  if (path === '/v1/embeddings') return 'embeddings';
  return undefined;
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, null, `the model id in the path is not valid percent-encoding: ${segment}`, { type: 'invalid_request_error' });
  }
}

function unknownModel(model: string, served: readonly string[], kind = ''): HttpError {
  return new HttpError(404, 'model_not_found', `The ${kind}model '${model}' does not exist on this server; it serves ${served.join(', ')} (GET /v1/models)`, {
    type: 'invalid_request_error',
    field: 'model',
  });
}
