import type { z } from 'zod';
import { zodIssues } from '../../core/index.js';
import {
  ConnectionError,
  MalformedResponseError,
  RequestTimeoutError,
  providerErrorFromStatus,
  withRetry,
  type ProviderError,
  type RetryOptions,
} from '../../llm/index.js';

export interface PostJsonOptions {
  url: string;
  timeoutMs: number;
  maxRetries: number;
  /** Named in messages about a missing or rejected key. */
  apiKeyEnv: string;
  apiKey: string | undefined;
  signal?: AbortSignal;
  retry?: Omit<RetryOptions, 'maxRetries' | 'signal'>;
  fetch: typeof fetch;
}

/**
 * POSTs JSON and validates the answer with `schema`, retrying transient failures with
 * `withRetry`. Every failure becomes a ProviderError that names the URL: 408/409/429/5xx,
 * refused or dropped connections, timeouts and bodies that are not JSON are retried; other
 * 4xx and a body of the wrong shape (the server speaks another protocol) are not.
 */
export async function postJson<Schema extends z.ZodType>(body: unknown, schema: Schema, options: PostJsonOptions): Promise<z.output<Schema>> {
  const { maxRetries, signal } = options;
  const retryOptions: RetryOptions = { ...options.retry, maxRetries };
  if (signal) retryOptions.signal = signal;
  const payload = JSON.stringify(body);
  const { result } = await withRetry(() => attempt(payload, schema, options), retryOptions);
  return result;
}

async function attempt<Schema extends z.ZodType>(payload: string, schema: Schema, options: PostJsonOptions): Promise<z.output<Schema>> {
  const { url, timeoutMs, apiKey, apiKeyEnv, signal } = options;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  try {
    let text: string;
    let response: Response;
    try {
      response = await options.fetch(url, { method: 'POST', headers, body: payload, signal: controller.signal });
      // Read the body under the same deadline: a server can stall after the headers.
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timedOut) throw new RequestTimeoutError(`${url} did not answer within ${timeoutMs} ms; raise timeoutMs if the reward model is slow`, timeoutMs, { cause: error });
      throw transportError(url, error);
    }
    if (!response.ok) {
      throw providerErrorFromStatus(response.status, serverMessage(text, response.statusText), response.headers, { baseURL: url, apiKeyEnv, timeoutMs, apiKeyMissing: !apiKey });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new MalformedResponseError(`${url} sent a body that is not JSON (${shorten(text)}); is the URL the reward endpoint?`, { cause: error });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issues = zodIssues(parsed.error).map((issue) => `${issue.path || '(root)'}: ${issue.message}`).join('; ');
      // The server speaks another protocol or version: repeating the request cannot help.
      throw new MalformedResponseError(`${url} answered with an unexpected body (${issues}): ${shorten(text)}`, { retryable: false });
    }
    return parsed.data;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function transportError(url: string, error: unknown): ProviderError {
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  const message = error instanceof Error ? error.message : String(error);
  if (/terminated|other side closed|premature close/i.test(`${message}${cause}`)) {
    return new MalformedResponseError(`${url} closed the connection before the body was complete${cause}`, { cause: error });
  }
  return new ConnectionError(`could not reach ${url}: ${message}${cause}; check that the reward server is running`, { cause: error });
}

/** The server's own error text: the `message`/`error`/`detail` field of a JSON body, else the body. */
function serverMessage(text: string, statusText: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    for (const key of ['message', 'error', 'detail']) {
      const value = body[key];
      if (typeof value === 'string') return value;
      if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') return (value as { message: string }).message;
    }
  } catch {
    // Not JSON: the raw text is the best description there is.
  }
  return shorten(text) || statusText;
}

function shorten(text: string, maxChars = 200): string {
  return text.length > maxChars ? `${text.slice(0, maxChars)}...` : text;
}
