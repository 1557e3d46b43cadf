import { OrchrmError } from '../core/errors.js';

/** The JSON body of every error answer: `{"error": {"message", "code", "field"?}}`. */
export interface ErrorBody {
  error: { message: string; code: string; field?: string };
}

/**
 * An error answer that knows its status and renders its own body (as Hono's `HTTPException`),
 * so handlers just throw and one place sends. `field` names the offending request field
 * (`plans[3]`, `query`) when there is one.
 */
export class HttpError extends OrchrmError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: { field?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    const { field } = this.details;
    return { error: { message: this.message, code: this.code, ...(field === undefined ? {} : { field }) } };
  }
}
