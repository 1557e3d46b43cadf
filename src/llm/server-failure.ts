import { ConflictError, ConnectionError, MalformedResponseError, ProviderError, RateLimitError, RequestTimeoutError, ServerError, AuthenticationError } from './provider-errors.js';
import { RetryError } from './retry.js';

/**
 * Whether an error that ended a model call (after its retries) is a failure of the server, not
 * of what was asked: the server could not be reached or dropped the connection, answered 5xx,
 * 429, 408 or 409, sent a truncated or garbled body, never answered within the timeout, or
 * refused the key (401/403). The same request may succeed on a healthy server, so an episode
 * that ended this way says nothing about its plan: it is stored apart (status `server_error`),
 * never mined, and redone by a resume. Any other 4xx (the request itself was refused: a context
 * too long, an unknown parameter) and errors that are not the transport's stay plan failures.
 */
export function isServerFailure(error: unknown): boolean {
  const last = error instanceof RetryError ? error.lastError : error;
  if (!(last instanceof ProviderError)) return false;
  return (
    last instanceof ServerError ||
    last instanceof RateLimitError ||
    last instanceof ConflictError ||
    last instanceof ConnectionError ||
    last instanceof RequestTimeoutError ||
    last instanceof MalformedResponseError ||
    last instanceof AuthenticationError
  );
}
