import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { OrchrmError, UserError } from './errors.js';
import { isLoopbackHost } from './is-loopback-host.js';

/**
 * Largest request head (request line and headers) a server reads: 8 KiB, as nginx's default
 * header buffer; node's own default is 16 KiB. Clients of these servers (OpenAI and OpenRLHF
 * clients, verl's `requests`) send well under 1 KiB. Beyond it node answers 431.
 */
export const DEFAULT_MAX_HEADER_BYTES = 8 * 1024;

/**
 * Request body bytes one server holds at once, across all requests, when its options name no
 * limit: 256 MiB. A body is held as bytes, as text and as parsed JSON while its request runs
 * (about 3 times its size in all, measured in docs/integrations.md), so this bounds what
 * concurrent bodies can cost; a request that would pass it gets a 503 with `retry-after`
 * instead of memory.
 */
export const DEFAULT_MAX_BODY_BYTES_IN_FLIGHT = 256 * 1024 * 1024;

/** The body bytes a server is holding, and how many of them each request reserved. */
class BodyBudget {
  private held = 0;
  constructor(readonly limitBytes: number) {}

  get heldBytes(): number {
    return this.held;
  }

  tryReserve(bytes: number): boolean {
    if (this.held + bytes > this.limitBytes) return false;
    this.held += bytes;
    return true;
  }

  release(bytes: number): void {
    this.held -= bytes;
  }
}

/** A request's share of its server's body budget, released when its response closes. */
interface BodyReservation {
  budget: BodyBudget;
  reservedBytes: number;
}

/** Each request of a `startHttpServer` server, to its reservation: `readRequestBody` finds it here. */
const reservations = new WeakMap<IncomingMessage, BodyReservation>();

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
  /**
   * The error for a body that would take the server past its body bytes in flight
   * (`HttpServerOptions.maxBodyBytesInFlight`). @default a 503 `server_busy` with `retry-after: 1`
   */
  busy?: (limitBytes: number) => HttpError;
}

/**
 * Reads a request body as UTF-8 text, at most `maxBodyBytes`. Rejects (`tooLarge`) as soon as
 * the declared or received size passes the limit, and (`clientClosed`) when the client closes
 * the connection mid-body. A declared length is read straight into one buffer of that size, so
 * a large body is held once rather than as chunks plus their concatenation. On a
 * `startHttpServer` server the body's bytes are reserved from the server's bytes in flight
 * (before reading when declared, chunk by chunk otherwise) until its response closes; a body
 * that would pass them is rejected (`busy`) instead of read.
 *
 * After an overflow the rest of the body is still read and thrown away, rather than the socket
 * destroyed: a client that is still writing would otherwise see a connection reset instead of
 * the answer (a `connection: close` answer would make node destroy the socket as soon as the
 * answer is written, which has the same effect). The caller bounds the drain with its own
 * request timeout, if it has one.
 */
export function readRequestBody(request: IncomingMessage, options: ReadRequestBodyOptions): Promise<string> {
  const { maxBodyBytes, tooLarge = defaultTooLarge(maxBodyBytes), clientClosed = defaultClientClosed, busy = defaultBusy } = options;
  // Set for requests of a `startHttpServer` server: its body bytes in flight are bounded.
  const reservation = reservations.get(request);
  const reserve = (bytes: number) => {
    if (reservation === undefined) return true;
    if (!reservation.budget.tryReserve(bytes)) return false;
    reservation.reservedBytes += bytes;
    return true;
  };
  return new Promise((resolve, reject) => {
    const declaredBytes = Number(request.headers['content-length']);
    if (Number.isFinite(declaredBytes) && declaredBytes > maxBodyBytes) {
      request.resume();
      reject(tooLarge(declaredBytes, 'declared'));
      return;
    }
    // Known length: reserved, then one buffer filled in place. Unknown (chunked): chunks, reserved as they come, joined at the end.
    const declared = Number.isInteger(declaredBytes) && declaredBytes > 0;
    if (declared && !reserve(declaredBytes)) {
      request.resume();
      reject(busy(reservation!.budget.limitBytes));
      return;
    }
    const whole = declared ? Buffer.allocUnsafe(declaredBytes) : undefined;
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
      if (!whole && !reserve(chunk.length)) {
        overflowed = true;
        chunks.length = 0;
        reject(busy(reservation!.budget.limitBytes));
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

const defaultBusy = (limitBytes: number) =>
  new HttpError(503, 'server_busy', `the server is already holding ${limitBytes} bytes of request bodies, its limit; retry shortly`, { headers: { 'retry-after': '1' } });

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
  /** Largest request head; node answers 431 beyond (`serverOptions.maxHeaderSize` overrides it). @default DEFAULT_MAX_HEADER_BYTES (8 KiB) @unit bytes */
  maxHeaderBytes?: number;
  /**
   * Request body bytes held at once across all requests (`readRequestBody` reserves a body's
   * bytes until its response closes); a body that would pass it gets `busy` (503).
   * @default DEFAULT_MAX_BODY_BYTES_IN_FLIGHT (256 MiB) @unit bytes
   */
  maxBodyBytesInFlight?: number;
  /** Whether every request must authenticate (a token is set). @default false */
  authenticated?: boolean;
  /**
   * Listen on a non-loopback `host` without authentication. Off, such a server refuses to start:
   * anyone who can reach the address could use it. @default false
   */
  allowUnauthenticated?: boolean;
  /** How the token is set and the switch named in the refusal (CLI flags, or option names). @default the option names */
  authenticationHint?: { token: string; allowUnauthenticated: string };
}

export interface HttpServer {
  /** `http://host:port`, IPv6 hosts in brackets. */
  url: string;
  host: string;
  port: number;
  /** Whether `close()` has been called: requests arriving now get `connection: close`. */
  readonly closing: boolean;
  /** Request body bytes reserved by requests still running (at most `maxBodyBytesInFlight`). */
  readonly bodyBytesInFlight: number;
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
  const { host = '127.0.0.1', port = 0, portName = 'port', closeTimeoutMs = 10_000, maxHeaderBytes = DEFAULT_MAX_HEADER_BYTES, maxBodyBytesInFlight = DEFAULT_MAX_BODY_BYTES_IN_FLIGHT, handle, onError, onClientError, onClosing } = options;
  if (!isLoopbackHost(host) && !options.authenticated && !options.allowUnauthenticated) {
    const hint = options.authenticationHint ?? { token: 'the token option', allowUnauthenticated: 'allowUnauthenticated: true' };
    throw new UserError(
      `refusing to listen on ${host} without authentication: anyone who can reach that address could use this server. Set a bearer token (${hint.token}), keep the server on 127.0.0.1, or, if a proxy or firewall in front of it authenticates every client, say so with ${hint.allowUnauthenticated}`,
    );
  }
  const bodyBudget = new BodyBudget(maxBodyBytesInFlight);
  let inFlight = 0;
  let onIdle: (() => void) | undefined;
  let closing: Promise<void> | undefined;

  const server = createServer({ maxHeaderSize: maxHeaderBytes, ...options.serverOptions }, (request, response) => {
    inFlight++;
    const reservation: BodyReservation = { budget: bodyBudget, reservedBytes: 0 };
    reservations.set(request, reservation);
    response.once('close', () => {
      inFlight--;
      bodyBudget.release(reservation.reservedBytes);
      reservation.reservedBytes = 0;
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
    get bodyBytesInFlight() {
      return bodyBudget.heldBytes;
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
