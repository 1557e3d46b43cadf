import type { ServerResponse } from 'node:http';
import type { FaultKind } from './fault-config.js';
import { sendJson } from '../../core/index.js';

/** What an injected fault needs besides its kind. */
export interface FaultDetails {
  /** `retry-after` of injected 429 and 500 answers. @unit seconds */
  retryAfterS: number;
  /** The real answer, which `truncate` and `garble` corrupt (unused by the other kinds). */
  bodyText: string;
  /** Where `truncate` and `garble` cut the body, as a fraction of its length. */
  cutFraction: number;
}

/**
 * Answers with an injected fault, in the shapes real servers and proxies produce:
 * - `rateLimit`, `serverError`: OpenAI's 429 / 500 error bodies with `retry-after`;
 * - `truncate`: `content-length` of the whole body, part of it sent, then the connection closed;
 * - `garble`: a complete 200 whose body is cut and ends in bytes no JSON text can hold;
 * - `drop`: the socket destroyed before any answer;
 * - `hang`: nothing at all; the server holds the request until the client gives up.
 */
export function sendFault(response: ServerResponse, fault: FaultKind, details: FaultDetails): void {
  if (response.destroyed) return;
  const retryAfter = { 'retry-after': String(details.retryAfterS) };
  switch (fault) {
    case 'rateLimit':
      sendJson(
        response,
        429,
        { error: { message: 'Rate limit reached (injected fault); retry after the retry-after delay', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
        retryAfter,
      );
      return;
    case 'serverError':
      sendJson(
        response,
        500,
        { error: { message: 'The server had an error while processing your request (injected fault); retry', type: 'server_error', param: null, code: null } },
        retryAfter,
      );
      return;
    case 'drop':
      response.socket?.destroy();
      return;
    case 'hang':
      return;
    case 'truncate': {
      const bytes = Buffer.from(details.bodyText, 'utf8');
      const cut = cutIndex(bytes.length, details.cutFraction);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length });
      // The declared length is never reached: the client sees the connection close mid-body.
      response.write(bytes.subarray(0, cut), () => response.socket?.destroy());
      return;
    }
    case 'garble': {
      // A prefix of a JSON object cannot be closed by text holding no `}`, and a NUL byte is
      // invalid JSON inside or outside a string, so this body never parses.
      const cut = cutIndex(details.bodyText.length, details.cutFraction);
      const garbled = `${details.bodyText.slice(0, cut)}\u0000\ufffd`;
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(garbled) });
      response.end(garbled);
      return;
    }
  }
}

/** A cut strictly inside the body, so some of it is sent and some is missing. */
function cutIndex(length: number, cutFraction: number): number {
  return Math.min(Math.max(1, Math.floor(length * cutFraction)), Math.max(1, length - 1));
}
