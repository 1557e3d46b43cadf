import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

/**
 * Largest request body accepted when the options name none: 128 MiB. OpenRLHF 0.7.1 to 0.9.0
 * posts a whole rollout batch in one request; one query built from orchrm's orchestrator
 * prompt (3.1k-3.6k characters of instructions in a chat template, the task, a plan) is about 10 KB with its
 * `prompts` entry, so 1024 queries are 10.4 MB and `--rollout_batch_size 1024
 * --n_samples_per_prompt 8` sends about 85 MB. The limit covers that with room to spare; a body
 * that large is held several times over while it is parsed (measured in docs/integrations.md).
 */
export const DEFAULT_MAX_BODY_BYTES = 128 * 1024 * 1024;

/**
 * Reads a request body as UTF-8 text, at most `maxBodyBytes`. Rejects with a 413 as soon as the
 * declared or received size passes the limit, and with a 400 when the client closes the
 * connection mid-body. A declared length is read straight into one buffer of that size, so a
 * large body is held once rather than as chunks plus their concatenation.
 *
 * After a 413 the rest of the body is still read and thrown away, rather than the socket
 * destroyed: a client that is still writing would otherwise see a connection reset instead of
 * the answer (a `connection: close` answer would make node destroy the socket as soon as the
 * answer is written, which has the same effect). The caller bounds the drain with its request
 * timeout.
 */
export function readRequestBody(request: IncomingMessage, maxBodyBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const tooLarge = (bytes: number, how: string) =>
      new HttpError(
        413,
        'body_too_large',
        `the request body (${how} ${bytes} bytes) is larger than this server's limit of ${maxBodyBytes} bytes; send fewer or shorter plans per request (or start the server with a larger --max-body-bytes)`,
      );
    const declaredBytes = Number(request.headers['content-length']);
    if (Number.isFinite(declaredBytes) && declaredBytes > maxBodyBytes) {
      request.resume();
      reject(tooLarge(declaredBytes, 'declared'));
      return;
    }
    // Known length: one buffer, filled in place. Unknown (chunked): chunks, joined at the end.
    const whole = Number.isInteger(declaredBytes) && declaredBytes > 0 ? Buffer.allocUnsafe(declaredBytes) : undefined;
    const chunks: Buffer[] = [];
    let receivedBytes = 0;
    let overflowed = false;
    request.on('data', (chunk: Buffer) => {
      if (overflowed) return;
      if (receivedBytes + chunk.length > maxBodyBytes || (whole && receivedBytes + chunk.length > whole.length)) {
        overflowed = true;
        chunks.length = 0;
        reject(tooLarge(receivedBytes + chunk.length, 'at least'));
        return;
      }
      if (whole) chunk.copy(whole, receivedBytes);
      else chunks.push(chunk);
      receivedBytes += chunk.length;
    });
    request.once('end', () => {
      if (overflowed) return;
      resolve(whole ? whole.toString('utf8', 0, receivedBytes) : Buffer.concat(chunks).toString('utf8'));
    });
    request.once('error', reject);
    request.once('close', () => {
      if (!request.complete) reject(new HttpError(400, 'client_closed', 'the client closed the connection before sending the whole body'));
    });
  });
}
