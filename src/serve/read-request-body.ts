import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

/** Largest request body accepted when the options name none: 8 MiB (4096 plans of ~2 KB). */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Reads a request body as UTF-8 text, at most `maxBodyBytes`. Rejects with a 413 as soon as the
 * declared or received size passes the limit, and with a 400 when the client closes the
 * connection mid-body.
 *
 * After a 413 the rest of the body is still read and thrown away, rather than the socket
 * destroyed: a client that is still writing would otherwise see a connection reset instead of
 * the answer. The caller's request timeout bounds how long that drain may take.
 */
export function readRequestBody(request: IncomingMessage, maxBodyBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const tooLarge = (bytes: number, how: string) =>
      new HttpError(413, 'body_too_large', `the request body (${how} ${bytes} bytes) is larger than this server's limit of ${maxBodyBytes} bytes; send fewer or shorter plans per request (or start the server with a larger --max-body-bytes)`);
    const declaredBytes = Number(request.headers['content-length']);
    if (Number.isFinite(declaredBytes) && declaredBytes > maxBodyBytes) {
      request.resume();
      reject(tooLarge(declaredBytes, 'declared'));
      return;
    }
    const chunks: Buffer[] = [];
    let receivedBytes = 0;
    let overflowed = false;
    request.on('data', (chunk: Buffer) => {
      receivedBytes += chunk.length;
      if (overflowed) return;
      if (receivedBytes > maxBodyBytes) {
        overflowed = true;
        chunks.length = 0;
        reject(tooLarge(receivedBytes, 'at least'));
        return;
      }
      chunks.push(chunk);
    });
    request.once('end', () => {
      if (!overflowed) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    request.once('error', reject);
    request.once('close', () => {
      if (!request.complete) reject(new HttpError(400, 'client_closed', 'the client closed the connection before sending the whole body'));
    });
  });
}
