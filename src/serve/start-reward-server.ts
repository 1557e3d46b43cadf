import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { DEFAULT_MAX_BODY_BYTES_IN_FLIGHT, HttpError, readRequestBody, startHttpServer, UserError } from '../core/index.js';
import { createRewardApp, type AppRequest, type AppResponse, type RewardApp, type RewardAppOptions } from './reward-app.js';

/**
 * Largest request body accepted when the options name none: 128 MiB. OpenRLHF 0.7.1 to 0.9.0
 * posts a whole rollout batch in one request; one query built from orchrm's orchestrator
 * prompt (3.1k-3.6k characters of instructions in a chat template, the task, a plan) is about 10 KB with its
 * `prompts` entry, so 1024 queries are 10.4 MB and `--rollout_batch_size 1024
 * --n_samples_per_prompt 8` sends about 85 MB. The limit covers that with room to spare; a body
 * that large is held several times over while it is parsed (measured in docs/integrations.md).
 */
export const DEFAULT_MAX_BODY_BYTES = 128 * 1024 * 1024;

export interface RewardServerOptions extends RewardAppOptions {
  /** Address to bind. Anything but loopback exposes the server to the network. @default '127.0.0.1' */
  host?: string;
  /** @default 0 (an ephemeral port; read it from `server.port`) */
  port?: number;
  /** Largest request body accepted (413 beyond). @default DEFAULT_MAX_BODY_BYTES (128 MiB) @unit bytes */
  maxBodyBytes?: number;
  /**
   * Request body bytes held at once across all requests; a request whose body would pass it gets
   * a 503 with `retry-after: 1`. Each body costs about 3 times its size in memory while its request runs.
   * At least `maxBodyBytes`. @default twice `maxBodyBytes`, at least 256 MiB @unit bytes
   */
  maxBodyBytesInFlight?: number;
  /**
   * Serve on a non-loopback `host` without a `token`. Off, that refuses to start: anyone who can
   * reach the address could use the reward model. @default false
   */
  allowUnauthenticated?: boolean;
  /**
   * Time a client has to send a request's headers and then its whole body; slower clients get
   * a 408 and are disconnected, so a trickling client cannot hold a connection forever.
   * @default 30000 @unit milliseconds
   */
  requestTimeoutMs?: number;
  /** How long `close()` lets in-flight requests finish before dropping them. @default 10000 @unit milliseconds */
  closeTimeoutMs?: number;
}

export interface RewardServer {
  /** Base URL, such as `http://127.0.0.1:5000` (routes are `/v1/score`, `/get_reward`, ...). */
  url: string;
  host: string;
  port: number;
  /** The request handling behind the socket, with its metrics. */
  app: RewardApp;
  /** Stops accepting connections, lets in-flight requests finish (up to `closeTimeoutMs`), then closes; idempotent. */
  close(): Promise<void>;
}

/**
 * Serves a reward model over HTTP (node:http): `POST /v1/score`, `POST /get_reward` (OpenRLHF),
 * `GET /healthz`, `GET /metrics`, with an optional bearer token, body, batch and time limits,
 * and graceful shutdown. A bad request gets a 4xx naming the problem and never ends the process.
 *
 * @example
 * const server = await startRewardServer({ model, port: 5000, token: process.env.ORCHRM_TOKEN });
 * // POST http://127.0.0.1:5000/v1/score {"task": "...", "plans": ["...", "..."]}
 * await server.close();
 */
export async function startRewardServer(options: RewardServerOptions): Promise<RewardServer> {
  const { host = '127.0.0.1', port = 0, maxBodyBytes = DEFAULT_MAX_BODY_BYTES, requestTimeoutMs = 30_000, closeTimeoutMs = 10_000 } = options;
  const maxBodyBytesInFlight = options.maxBodyBytesInFlight ?? Math.max(DEFAULT_MAX_BODY_BYTES_IN_FLIGHT, 2 * maxBodyBytes);
  if (maxBodyBytesInFlight < maxBodyBytes) {
    throw new UserError(`the body bytes in flight (${maxBodyBytesInFlight}) must be at least the largest body (${maxBodyBytes}), or a request of that size could never be served; raise --max-body-bytes-in-flight or lower --max-body-bytes`);
  }
  const app = createRewardApp(options);
  const tooLarge = (bytes: number, how: string) =>
    new HttpError(
      413,
      'body_too_large',
      `the request body (${how} ${bytes} bytes) is larger than this server's limit of ${maxBodyBytes} bytes; send fewer or shorter plans per request (or start the server with a larger --max-body-bytes)`,
    );

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const startedAtMs = performance.now();
    const head = headOf(request);
    const timer = setTimeout(() => {
      if (!response.headersSent) {
        response.setHeader('connection', 'close');
        send(response, app.reject(head, new HttpError(408, 'request_timeout', `the request was not received within ${requestTimeoutMs} ms; send the whole body at once`), startedAtMs));
      } else {
        // Still draining the body of a request already answered (413): stop listening to it.
        request.socket.destroy();
      }
    }, requestTimeoutMs);
    // The timer alone must never keep the process alive: after `close()` it would hold a
    // stopped server's process for up to `requestTimeoutMs` (issue 15: SIGTERM after a 413).
    timer.unref();
    const socket = request.socket;
    const stopTimer = () => {
      clearTimeout(timer);
      socket.off('close', stopTimer);
    };
    request.once('end', stopTimer);
    request.once('close', stopTimer);
    // Once answered, node detaches the request from its socket: a body still being drained then
    // never ends or closes even when the socket does, so watch the socket itself.
    response.once('finish', () => {
      if (!request.complete) socket.once('close', stopTimer);
    });

    // One object from head to answer: `app.request` knows it passed `precheck` and skips the checks.
    const input: AppRequest = head;
    const rejected = app.precheck(input);
    if (rejected) {
      request.resume();
      send(response, app.reject(head, rejected, startedAtMs));
      return;
    }
    try {
      input.body = await readRequestBody(request, { maxBodyBytes, tooLarge });
    } catch (error) {
      if (!response.headersSent && !response.destroyed) send(response, app.reject(head, asHttpError(error), startedAtMs));
      return;
    }
    // Abort the model's work when the client goes away before the answer is written.
    const controller = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) controller.abort(new Error('the client closed the connection'));
    });
    input.startedAtMs = startedAtMs;
    input.signal = controller.signal;
    send(response, await app.request(input));
  }

  const server = await startHttpServer({
    host,
    port,
    portName: '--port',
    closeTimeoutMs,
    maxBodyBytesInFlight,
    authenticated: options.token !== undefined,
    ...(options.allowUnauthenticated !== undefined && { allowUnauthenticated: options.allowUnauthenticated }),
    authenticationHint: { token: '--token-env, or the token option', allowUnauthenticated: '--allow-unauthenticated (allowUnauthenticated: true)' },
    // Slow headers are node's to catch (it answers through `onClientError` below); a slow body is
    // caught per request in `handle`, where the answer can name the route. node's own whole-request
    // timer is off, as it would also cut requests that are merely waiting for the model.
    serverOptions: {
      headersTimeout: requestTimeoutMs,
      requestTimeout: 0,
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(requestTimeoutMs / 4))),
    },
    handle,
    onError(error, request, response) {
      // Only a bug of ours gets here (the app turns every failure into an answer): answer 500, stay up.
      send(response, app.reject(headOf(request), new HttpError(500, 'internal_error', `the reward server failed: ${(error as Error)?.message ?? String(error)}`)));
    },
    onClientError(error, socket) {
      // Malformed HTTP or headers too slow: answer in JSON as every other error, unless a response
      // is already under way on this socket (node's own rule), then close.
      if (error.code !== 'ECONNRESET' && socket.writable && socket.bytesWritten === 0) {
        const httpError =
          error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? new HttpError(408, 'request_timeout', `the request headers were not received within ${requestTimeoutMs} ms`)
            : error.code === 'HPE_HEADER_OVERFLOW'
              ? new HttpError(431, 'headers_too_large', 'the request headers are too large')
              : new HttpError(400, 'malformed_request', `the request is not valid HTTP/1.1 (${error.code ?? error.message})`);
        const answer = app.reject({ method: '', path: '', ...(socket.remoteAddress !== undefined && { remoteAddress: socket.remoteAddress }) }, httpError);
        socket.end(`HTTP/1.1 ${answer.status} ${reasonPhrase(answer)}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(answer.body)}\r\nconnection: close\r\n\r\n${answer.body}`);
        return;
      }
      socket.destroy();
    },
    onClosing: () => app.startDraining(),
  });

  return { url: server.url, host: server.host, port: server.port, app, close: () => server.close() };
}

function headOf(request: IncomingMessage) {
  const { remoteAddress } = request.socket;
  return { method: request.method ?? '', path: request.url ?? '/', headers: request.headers, ...(remoteAddress !== undefined && { remoteAddress }) };
}

/**
 * The status line's reason phrase: the standard one, plus the error code and field for error
 * answers. Clients that drop error bodies still show it: OpenRLHF logs aiohttp's and requests'
 * exceptions, whose text is the status and reason ("400, message='Bad Request (query_prompt_mismatch query[3])'").
 */
function reasonPhrase(answer: AppResponse): string {
  const standard = STATUS_CODES[answer.status] ?? 'Unknown';
  if (!answer.refusal) return standard;
  const { code, field } = answer.refusal;
  // A reason phrase is visible ASCII and spaces only (RFC 9112 section 4).
  return `${standard} (${code}${field === undefined ? '' : ` ${field}`})`.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
}

function asHttpError(error: unknown): HttpError {
  return error instanceof HttpError ? error : new HttpError(400, 'bad_request', `the request body could not be read (${(error as Error)?.message ?? String(error)})`);
}

/** Writes an answer with its exact length; does nothing once the client is gone or an answer went out. */
function send(response: ServerResponse, answer: AppResponse): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(answer.status, reasonPhrase(answer), { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
  response.end(answer.body);
}
