import type { ServerResponse } from 'node:http';
import { OrchrmError } from '../../core/errors.js';

/** OpenAI's error body: `{error: {message, type, param, code}}`. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/**
 * An HTTP error answer that renders itself in OpenAI's error shape (as Hono's `HTTPException`
 * renders its response), so every handler just throws and one place sends.
 */
export class HttpError extends OrchrmError {
  constructor(
    readonly status: number,
    message: string,
    readonly details: { type: string; code?: string | null; param?: string | null; headers?: Record<string, string> },
  ) {
    super(message);
  }

  body(): OpenAiErrorBody {
    return { error: { message: this.message, type: this.details.type, param: this.details.param ?? null, code: this.details.code ?? null } };
  }

  send(response: ServerResponse): void {
    sendJson(response, this.status, this.body(), this.details.headers);
  }
}

/** Writes a JSON answer with its exact `content-length`; does nothing once the client is gone or headers went out. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJsonText(response, status, JSON.stringify(body), headers);
}

/** As `sendJson`, for a body already serialised. */
export function sendJsonText(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  if (response.destroyed || response.headersSent) return;
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}
