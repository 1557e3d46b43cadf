import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { OrchrmError, UserError } from './errors.js';

/** What an error answer may carry besides its status, code and message. */
export interface HttpErrorDetails {
  /** The offending request field (`plans[3]`, `model`), when there is one. */
  field?: string;
  /** OpenAI's error `type` (`invalid_request_error`, `server_error`), for servers that speak its API. */
  type?: string;
  /** Extra response headers (`allow`, `retry-after`, `www-authenticate`). */
  headers?: Record<string, string>;
}

/**
 * An HTTP error answer that knows its status (as Hono's `HTTPException`), so handlers just throw
 * and one place sends. Each server renders the body in its own protocol's shape: `code` is the
 * machine-readable error code (`body_too_large`), or null where the protocol has none.
 */
export class HttpError extends OrchrmError {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly details: HttpErrorDetails = {},
  ) {
    super(message);
  }
}

/** Writes a JSON answer with its exact `content-length`; does nothing once the client is gone or an answer went out. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJsonText(response, status, JSON.stringify(body), headers);
}

/** As `sendJson`, for a body already serialised. */
export function sendJsonText(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  if (response.destroyed || response.headersSent) return;
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

export interface ReadRequestBodyOptions {
  /** Largest body accepted. @unit bytes */
  maxBodyBytes: number;
  /** The error for a body over the limit: `bytes` as declared by `content-length`, or at least received. @default a 413 `body_too_large` */
  tooLarge?: (bytes: number, how: 'declared' | 'at least') => HttpError;
  /** The error for a client that closed the connection mid-body. @default a 400 `client_closed` */
  clientClosed?: () => HttpError;
}

/**
 * Reads a request body as UTF-8 text, at most `maxBodyBytes`. Rejects (`tooLarge`) as soon as
 * the declared or received size passes the limit, and (`clientClosed`) when the client closes
 * the connection mid-body. A declared length is read straight into one buffer of that size, so
 * a large body is held once rather than as chunks plus their concatenation.
 *
 * After an overflow the rest of the body is still read and thrown away, rather than the socket
 * destroyed: a client that is still writing would otherwise see a connection reset instead of
 * the answer (a `connection: close` answer would make node destroy the socket as soon as the
 * answer is written, which has the same effect). The caller bounds the drain with its own
 * request timeout, if it has one.
 */
export function readRequestBody(request: IncomingMessage, options: ReadRequestBodyOptions): Promise<string> {
  const { maxBodyBytes, tooLarge = defaultTooLarge(maxBodyBytes), clientClosed = defaultClientClosed } = options;
  return new Promise((resolve, reject) => {
    const declaredBytes = Number(request.headers['content-length']);
    if (Number.isFinite(declaredBytes) && declaredBytes > maxBodyBytes) {
      request.resume();
      reject(tooLarge(declaredBytes, 'declared'));
      return;
    }
    // Known length: one buffer, filled in place. Unknown (chunked): chunks, joined at the end.
    const whole = Number.isInteger(declaredBytes) && declaredBytes > 0 ? Buffer.allocUnsafe(declaredBytes) : undefined;
    const chunks: Buffer[] = [];
    let receivedBytes = 0;
    let overflowed = false;
    request.on('data', (chunk: Buffer) => {
      if (overflowed) return;
      if (receivedBytes + chunk.length > maxBodyBytes || (whole && receivedBytes + chunk.length > whole.length)) {
        overflowed = true;
        chunks.length = 0;
        reject(tooLarge(receivedBytes + chunk.length, 'at least'));
        return;
      }
      if (whole) chunk.copy(whole, receivedBytes);
      else chunks.push(chunk);
      receivedBytes += chunk.length;
    });
    request.once('end', () => {
      if (overflowed) return;
      resolve(whole ? whole.toString('utf8', 0, receivedBytes) : Buffer.concat(chunks).toString('utf8'));
    });
    request.once('error', reject);
    request.once('close', () => {
      if (!request.complete) reject(clientClosed());
    });
  });
}

const defaultTooLarge = (maxBodyBytes: number) => (bytes: number, how: 'declared' | 'at least') =>
  new HttpError(413, 'body_too_large', `the request body (${how} ${bytes} bytes) is larger than this server's limit of ${maxBodyBytes} bytes; send a smaller request`);

const defaultClientClosed = () => new HttpError(400, 'client_closed', 'the client closed the connection before sending the whole body');

/** Parses a request body as JSON; `invalid` turns the parser's complaint into the error answer. */
export function parseJsonBody(text: string, invalid: (reason: string) => HttpError): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalid((error as Error).message);
  }
}

export interface HttpServerOptions {
  /** @default '127.0.0.1' */
  host?: string;
  /** @default 0 (an ephemeral port; read it from `server.port`) */
  port?: number;
  /** How the port is named in the error when it is taken (`--port` for a CLI flag). @default 'port' */
  portName?: string;
  /** Options of node's `createServer` (header and request timeouts). */
  serverOptions?: ServerOptions;
  /** Answers one request. Whatever it throws or rejects with goes to `onError`. */
  handle(request: IncomingMessage, response: ServerResponse): void | Promise<void>;
  /** Answers a request whose `handle` failed (the response may already be gone). */
  onError(error: unknown, request: IncomingMessage, response: ServerResponse): void;
  /** Malformed HTTP or headers too slow, before any request exists. @default node's own handling */
  onClientError?: (error: NodeJS.ErrnoException, socket: Socket) => void;
  /** Called once when `close()` starts, before the drain (stop health checks, drop held requests). */
  onClosing?: () => void;
  /** How long `close()` lets in-flight requests finish before dropping them. @default 10000 @unit milliseconds */
  closeTimeoutMs?: number;
}

export interface HttpServer {
  /** `http://host:port`, IPv6 hosts in brackets. */
  url: string;
  host: string;
  port: number;
  /** Whether `close()` has been called: requests arriving now get `connection: close`. */
  readonly closing: boolean;
  /** Stops accepting connections, lets in-flight requests finish (up to `closeTimeoutMs`), then closes the rest; idempotent. */
  close(): Promise<void>;
}

/**
 * A node:http server with the shutdown every orchrm server needs: in-flight requests are
 * counted, `close()` stops listening, closes idle keep-alive sockets, waits for the requests
 * still running (up to `closeTimeoutMs`), then drops what is left; requests that arrive while
 * closing are answered with `connection: close`. A bind failure becomes a UserError saying how
 * to fix it.
 *
 * @example
 * const server = await startHttpServer({
 *   handle: async (request, response) => sendJson(response, 200, JSON.parse(await readRequestBody(request, { maxBodyBytes: 1 << 20 }))),
 *   onError: (error, _request, response) => sendJson(response, error instanceof HttpError ? error.status : 500, { error: String(error) }),
 * });
 * await server.close();
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const { host = '127.0.0.1', port = 0, portName = 'port', closeTimeoutMs = 10_000, handle, onError, onClientError, onClosing } = options;
  let inFlight = 0;
  let onIdle: (() => void) | undefined;
  let closing: Promise<void> | undefined;

  const server = createServer(options.serverOptions ?? {}, (request, response) => {
    inFlight++;
    response.once('close', () => {
      inFlight--;
      if (inFlight === 0) onIdle?.();
    });
    if (closing) response.setHeader('connection', 'close');
    let handled: void | Promise<void>;
    try {
      handled = handle(request, response);
    } catch (error) {
      onError(error, request, response);
      return;
    }
    if (handled) handled.catch((error: unknown) => onError(error, request, response));
  });
  if (onClientError) server.on('clientError', onClientError);

  await listen(server, host, port, portName);
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  async function shutDown(): Promise<void> {
    onClosing?.();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, closeTimeoutMs);
        onIdle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    // Left now: idle keep-alive sockets, and requests that overran the grace period.
    server.closeAllConnections();
    await closed;
  }

  return {
    url: `http://${urlHost}:${address.port}`,
    host: address.address,
    port: address.port,
    get closing() {
      return closing !== undefined;
    },
    close() {
      closing ??= shutDown();
      return closing;
    },
  };
}

function listen(server: Server, host: string, port: number, portName: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(listenError(error, host, port, portName));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Bind failures are the user's to fix (another port or host), so they become UserErrors saying how. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number, portName: string): Error {
  const where = `${host}:${port}`;
  if (error.code === 'EADDRINUSE') return new UserError(`${where} is already in use; choose another ${portName} (0 picks a free one)`, { cause: error });
  if (error.code === 'EACCES') return new UserError(`no permission to listen on ${where}; use a port above 1023`, { cause: error });
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') return new UserError(`cannot listen on host ${host}: it is not an address of this machine; use 127.0.0.1`, { cause: error });
  return error;
}
