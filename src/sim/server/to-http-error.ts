import type { ServerResponse } from 'node:http';
import { HttpError, sendJson, UserError } from '../../core/index.js';
import { ProviderError } from '../../llm/index.js';

/** OpenAI's error body: `{error: {message, type, param, code}}`. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** Sends an error answer in OpenAI's error shape (`field` becomes `param`). */
export function sendOpenAiError(response: ServerResponse, error: HttpError): void {
  const body: OpenAiErrorBody = { error: { message: error.message, type: error.details.type ?? 'invalid_request_error', param: error.details.field ?? null, code: error.code } };
  sendJson(response, error.status, body, error.details.headers);
}

/**
 * The answer for anything a request handler threw: HttpErrors as they are, a UserError from the
 * provider (a request it cannot serve) as 400, a ProviderError with a status as that status, and
 * anything else as a 500 that clients must not retry (`x-should-retry: false`), since repeating
 * a request the simulation fails on deterministically cannot help.
 */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UserError) return new HttpError(400, null, message, { type: 'invalid_request_error' });
  if (error instanceof ProviderError && error.status !== undefined) {
    return new HttpError(error.status, null, message, { type: error.status >= 500 ? 'server_error' : 'invalid_request_error' });
  }
  return new HttpError(500, null, `the simulated model failed on this request (${message}); this is a bug in orchrm, please report it`, {
    type: 'server_error',
    headers: { 'x-should-retry': 'false' },
  });
}
