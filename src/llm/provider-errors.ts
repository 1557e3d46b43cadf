import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { OrchrmError } from '../core/index.js';

/**
 * Transport failures of a model server, mapped to classes in one place (as openai-node
 * `APIError.generate` does). Every class says whether `withRetry` may try again.
 */
export class ProviderError extends OrchrmError {
  /** HTTP status, when the server answered at all. */
  readonly status?: number;
  /** How long the server asked us to wait (`retry-after-ms` / `retry-after`), in milliseconds. */
  readonly retryAfterMs?: number;
  /** Whether repeating the same request may succeed. */
  readonly retryable: boolean;
  /** The request parameter the server named as the problem (OpenAI's `error.param`), when it named one. */
  readonly param?: string;
  /** The server's error code (OpenAI's `error.code`, e.g. `unsupported_parameter`), when it sent one. */
  readonly code?: string;

  constructor(
    message: string,
    options: { status?: number; retryAfterMs?: number; retryable: boolean; cause?: unknown; param?: string; code?: string },
  ) {
    super(message, { cause: options.cause });
    if (options.status !== undefined) this.status = options.status;
    if (options.param !== undefined) this.param = options.param;
    if (options.code !== undefined) this.code = options.code;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    this.retryable = options.retryable;
  }
}

type ProviderErrorOptions = { status?: number; retryAfterMs?: number; cause?: unknown; retryable?: boolean; param?: string; code?: string };

/** 429: the server is rate limiting us; retried, honouring `retry-after`. */
export class RateLimitError extends ProviderError {
  constructor(message: string, options: ProviderErrorOptions = {}) {
    super(message, { retryable: true, ...options });
  }
}

/** 5xx: the server failed; retried. */
export class ServerError extends ProviderError {
  constructor(message: string, options: ProviderErrorOptions = {}) {
    super(message, { retryable: true, ...options });
  }
}

/** 409: openai-node retries these because servers use them for lock timeouts. */
export class ConflictError extends ProviderError {
  constructor(message: string, options: ProviderErrorOptions = {}) {
    super(message, { retryable: true, ...options });
  }
}

/** Any other 4xx: the request itself is wrong, so repeating it cannot help; not retried. */
export class BadRequestError extends ProviderError {
  constructor(message: string, options: ProviderErrorOptions = {}) {
    super(message, { retryable: false, ...options });
  }
}

/** 401/403: the key is missing or rejected; not retried. The message names the env var. */
export class AuthenticationError extends ProviderError {
  constructor(message: string, options: ProviderErrorOptions = {}) {
    super(message, { retryable: false, ...options });
  }
}

/** The connection failed or was dropped before a response arrived; retried. */
export class ConnectionError extends ProviderError {
  constructor(message: string, options: ProviderErrorOptions = {}) {
    super(message, { retryable: true, ...options });
  }
}

/** No complete response within the per-request timeout (or a 408 from the server); retried. */
export class RequestTimeoutError extends ProviderError {
  constructor(
    message: string,
    readonly timeoutMs: number | undefined,
    options: ProviderErrorOptions = {},
  ) {
    super(message, { retryable: true, ...options });
  }
}

/** The body was truncated, not JSON, or not a chat completion; retried (usually transient). */
export class MalformedResponseError extends ProviderError {
  constructor(message: string, options: ProviderErrorOptions = {}) {
    super(message, { retryable: true, ...options });
  }
}

/** Longest server-requested wait we obey; beyond it we use our own backoff (openai-node). */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Reads `retry-after-ms` (non-standard, sent by OpenAI) or `retry-after` (seconds or an HTTP
 * date, RFC 9110 section 10.2.3). Returns undefined when absent, unparsable, negative or
 * not under 60 s, so the caller falls back to exponential backoff.
 */
export function parseRetryAfterMs(headers: Headers | undefined, nowMs: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  let delayMs: number | undefined;
  const millisecondsHeader = headers.get('retry-after-ms');
  if (millisecondsHeader !== null && millisecondsHeader.trim() !== '') {
    const value = Number(millisecondsHeader);
    if (Number.isFinite(value)) delayMs = value;
  }
  const secondsOrDate = headers.get('retry-after');
  if (delayMs === undefined && secondsOrDate !== null && secondsOrDate.trim() !== '') {
    const seconds = Number(secondsOrDate);
    delayMs = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(secondsOrDate) - nowMs;
  }
  if (delayMs === undefined || Number.isNaN(delayMs)) return undefined;
  return delayMs >= 0 && delayMs < MAX_RETRY_AFTER_MS ? delayMs : undefined;
}

/** What the mapping needs to write actionable messages. */
export interface ProviderErrorContext {
  /** Base URL of the server, named in messages. */
  baseURL: string;
  /** Env var holding the API key, named in authentication messages. */
  apiKeyEnv: string;
  /** Per-request timeout, kept on RequestTimeoutError. */
  timeoutMs?: number;
  /** True when `apiKeyEnv` was unset, so the message can say so. */
  apiKeyMissing?: boolean;
}

/**
 * Builds the error for an HTTP status the server answered with. `x-should-retry`
 * overrides the class's default, as in openai-node `shouldRetry`.
 */
export function providerErrorFromStatus(
  status: number,
  serverMessage: string,
  headers: Headers | undefined,
  context: ProviderErrorContext,
  cause?: unknown,
  details: { param?: string; code?: string } = {},
): ProviderError {
  const options: ProviderErrorOptions = { status, cause, ...details };
  const retryAfterMs = parseRetryAfterMs(headers);
  if (retryAfterMs !== undefined) options.retryAfterMs = retryAfterMs;
  const shouldRetry = headers?.get('x-should-retry');
  if (shouldRetry === 'true' || shouldRetry === 'false') options.retryable = shouldRetry === 'true';
  const where = `${context.baseURL} answered ${status}`;
  // The openai client's messages start with the status; do not say it twice.
  const detail = serverMessage.startsWith(`${status} `) ? serverMessage.slice(`${status} `.length) : serverMessage;
  if (status === 401 || status === 403) {
    const keyState = context.apiKeyMissing ? `${context.apiKeyEnv} is not set` : `the key in ${context.apiKeyEnv} was rejected`;
    return new AuthenticationError(
      `${where} (${detail}): ${keyState}; put a valid API key in the environment variable ${context.apiKeyEnv} (or name another variable with "apiKeyEnv" in the provider config)`,
      options,
    );
  }
  if (status === 408) return new RequestTimeoutError(`${where}: request timeout (${detail})`, context.timeoutMs, options);
  if (status === 409) return new ConflictError(`${where}: conflict (${detail})`, options);
  if (status === 429) return new RateLimitError(`${where}: rate limited (${detail})`, options);
  if (status >= 500) return new ServerError(`${where}: server error (${detail})`, options);
  const fix = status === 404 ? missingV1Fix(context.baseURL) : undefined;
  return new BadRequestError(`${where}: the request was rejected (${detail}); ${fix ?? 'check the model name and request parameters'}`, options);
}

/**
 * For a base URL whose path does not end in /v1, the fix of a 404: OpenAI-compatible servers
 * (Ollama, vLLM, llama.cpp server) serve the API under /v1, and a base URL without it (Ollama's
 * own `http://127.0.0.1:11434`) asks for routes that do not exist. Undefined when it ends in /v1.
 */
export function missingV1Fix(baseURL: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return undefined;
  }
  if (/\/v1\/?$/.test(url.pathname)) return undefined;
  const withV1 = `${baseURL.replace(/\/+$/, '')}/v1`;
  return `the base URL has no /v1, under which OpenAI-compatible servers (Ollama, vLLM, llama.cpp server) serve their API: add /v1, "baseURL": "${withV1}" in the provider config`;
}

/**
 * Maps anything the `openai` client (or fetch) threw to a ProviderError. Errors that are not
 * transport failures (our own bugs) are returned unchanged so they are never retried.
 */
export function toProviderError(error: unknown, context: ProviderErrorContext): unknown {
  if (error instanceof ProviderError) return error;
  if (error instanceof APIConnectionTimeoutError) {
    return new RequestTimeoutError(
      `${context.baseURL} did not answer within ${context.timeoutMs ?? '?'} ms; raise "timeoutMs" in the provider config if the model is slow`,
      context.timeoutMs,
      { cause: error },
    );
  }
  if (error instanceof APIConnectionError) {
    const reason = error.cause instanceof Error ? `${error.message} ${describeCause(error.cause)}` : error.message;
    return new ConnectionError(`could not reach ${context.baseURL}: ${reason}; check that the server is running`, { cause: error });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const details: { param?: string; code?: string } = {};
    if (typeof error.param === 'string') details.param = error.param;
    if (typeof error.code === 'string') details.code = error.code;
    return providerErrorFromStatus(error.status, error.message, error.headers, context, error, details);
  }
  if (error instanceof SyntaxError) {
    return new MalformedResponseError(`${context.baseURL} sent a response body that is not valid JSON: ${error.message}`, { cause: error });
  }
  // undici rejects a body read with `TypeError: terminated` when the connection closes mid-body.
  if (error instanceof TypeError && /terminated|other side closed|premature close/i.test(`${error.message} ${describeCause(error)}`)) {
    return new MalformedResponseError(`${context.baseURL} closed the connection before the body was complete (truncated response)`, { cause: error });
  }
  return error;
}

function describeCause(error: Error): string {
  return error.cause instanceof Error ? `(${error.cause.message})` : '';
}
