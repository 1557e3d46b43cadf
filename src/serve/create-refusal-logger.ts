import type { EventSink } from '../core/index.js';
import type { RequestRefusedEvent } from './reward-app.js';

export interface RefusalLoggerOptions {
  /** Most lines written per window; the rest are counted and summarised once the window ends. @default 50 */
  maxLinesPerWindow?: number;
  /** @default 10000 @unit milliseconds */
  windowMs?: number;
  /** @default Date.now @unit milliseconds */
  now?: () => number;
  /** Longest message written per line, in characters (the client gets it whole in the body). @default 500 */
  maxMessageChars?: number;
}

/**
 * A `request-refused` event sink that writes one line per refused request, such as
 * `refused POST /get_reward from 127.0.0.1: 400 query_prompt_mismatch (query[3]): query[3] does not start ...`,
 * and at most `maxLinesPerWindow` lines per window, so a misbehaving client cannot flood the
 * log: the lines it suppresses are counted and reported by the next line written.
 *
 * @example
 * const server = await startRewardServer({ model, events: createRefusalLogger((line) => process.stderr.write(line)) });
 */
export function createRefusalLogger(write: (line: string) => void, options: RefusalLoggerOptions = {}): EventSink<RequestRefusedEvent> {
  const { maxLinesPerWindow = 50, windowMs = 10_000, now = Date.now, maxMessageChars = 500 } = options;
  let windowStartMs = -Infinity;
  let written = 0;
  let suppressed = 0;
  return ({ refusal }) => {
    const atMs = now();
    if (atMs - windowStartMs >= windowMs) {
      windowStartMs = atMs;
      written = 0;
    }
    if (written >= maxLinesPerWindow) {
      suppressed++;
      return;
    }
    written++;
    const { method, path, remoteAddress, status, code, field, message } = refusal;
    const shortMessage = message.length > maxMessageChars ? `${message.slice(0, maxMessageChars)}...` : message;
    const skipped = suppressed > 0 ? ` (${suppressed} earlier refusal(s) not logged)` : '';
    suppressed = 0;
    write(`refused ${method || '?'} ${path || '?'}${remoteAddress ? ` from ${remoteAddress}` : ''}: ${status} ${code}${field ? ` (${field})` : ''}: ${shortMessage}${skipped}\n`);
  };
}
