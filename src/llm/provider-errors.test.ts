import { APIConnectionError, APIConnectionTimeoutError, InternalServerError } from 'openai';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  MalformedResponseError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
  parseRetryAfterMs,
  providerErrorFromStatus,
  toProviderError,
} from './provider-errors.js';

const context = { baseURL: 'http://127.0.0.1:1/v1', apiKeyEnv: 'MY_KEY', timeoutMs: 1000 };

describe('providerErrorFromStatus', () => {
  it.each([
    [400, BadRequestError, false],
    [401, AuthenticationError, false],
    [403, AuthenticationError, false],
    [404, BadRequestError, false],
    [408, RequestTimeoutError, true],
    [409, ConflictError, true],
    [422, BadRequestError, false],
    [429, RateLimitError, true],
    [500, ServerError, true],
    [503, ServerError, true],
  ])('maps %i', (status, errorClass, retryable) => {
    const error = providerErrorFromStatus(status, 'detail', new Headers(), context);
    expect(error).toBeInstanceOf(errorClass);
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(retryable);
  });

  it('names the env var on authentication errors', () => {
    expect(providerErrorFromStatus(401, '401 nope', undefined, { ...context, apiKeyMissing: true }).message).toBe(
      'http://127.0.0.1:1/v1 answered 401 (nope): MY_KEY is not set; put a valid API key in the environment variable MY_KEY (or name another variable with "apiKeyEnv" in the provider config)',
    );
  });

  it('lets x-should-retry override the class default', () => {
    expect(providerErrorFromStatus(500, '', new Headers({ 'x-should-retry': 'false' }), context).retryable).toBe(false);
    expect(providerErrorFromStatus(400, '', new Headers({ 'x-should-retry': 'true' }), context).retryable).toBe(true);
  });

  it('keeps retry-after', () => {
    expect(providerErrorFromStatus(429, '', new Headers({ 'retry-after': '2' }), context).retryAfterMs).toBe(2000);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    [{ 'retry-after-ms': '250' }, 250],
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [{ 'retry-after': '0' }, 0],
    [{ 'retry-after': '1.5' }, 1500],
    [{ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, 30_000],
    [{ 'retry-after': '60' }, undefined],
    [{ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, undefined],
    [{ 'retry-after': 'soon' }, undefined],
    [{}, undefined],
  ])('%j -> %s', (headers, expected) => {
    expect(parseRetryAfterMs(new Headers(headers), now)).toBe(expected);
  });
});

describe('toProviderError', () => {
  it('maps the openai client errors', () => {
    expect(toProviderError(new APIConnectionTimeoutError(), context)).toBeInstanceOf(RequestTimeoutError);
    expect(toProviderError(new APIConnectionError({ message: 'Connection error.' }), context)).toBeInstanceOf(ConnectionError);
    const server = toProviderError(new InternalServerError(502, undefined, 'bad gateway', new Headers()), context);
    expect(server).toBeInstanceOf(ServerError);
    expect((server as ServerError).status).toBe(502);
    expect(toProviderError(new SyntaxError('Unexpected end of JSON input'), context)).toBeInstanceOf(MalformedResponseError);
  });

  it('returns errors that are not transport failures unchanged', () => {
    const bug = new RangeError('bug');
    expect(toProviderError(bug, context)).toBe(bug);
  });
});
