import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

/** Largest request body accepted when the server options name none: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Reads and parses a JSON request body of at most `maxBodyBytes`. Throws HttpError 413 as soon
 * as the declared or received size passes the limit, and 400 when the body is not JSON.
 *
 * On overflow the rest of the body is read and discarded rather than the socket destroyed, so
 * the client still receives the 413 (a client that is still writing would otherwise see a reset).
 */
export function readJsonBody(request: IncomingMessage, maxBodyBytes: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const tooLarge = () =>
      new HttpError(413, `request body is larger than ${maxBodyBytes} bytes; send a smaller request (fewer or shorter messages or inputs)`, {
        type: 'invalid_request_error',
        code: 'request_too_large',
      });
    const declaredBytes = Number(request.headers['content-length']);
    if (Number.isFinite(declaredBytes) && declaredBytes > maxBodyBytes) {
      request.resume();
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let receivedBytes = 0;
    let overflowed = false;
    request.on('data', (chunk: Buffer) => {
      if (overflowed) return;
      receivedBytes += chunk.length;
      if (receivedBytes > maxBodyBytes) {
        overflowed = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (overflowed) return;
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(
          new HttpError(400, `request body is not valid JSON (${(error as Error).message}); send a JSON object`, {
            type: 'invalid_request_error',
            code: 'invalid_json',
          }),
        );
      }
    });
    request.on('error', reject);
    // A client that goes away mid-body: settle so the handler does not wait forever.
    request.on('close', () => {
      if (!request.complete) reject(new HttpError(400, 'the client closed the connection before sending the whole body', { type: 'invalid_request_error' }));
    });
  });
}
