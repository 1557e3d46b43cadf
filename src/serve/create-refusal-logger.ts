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
    const { status, code } = refusal;
    const [method, path, remoteAddress, field] = [refusal.method, refusal.path, refusal.remoteAddress, refusal.field].map((text) => (text ? escapeControlCharacters(text.length > MAX_FIELD_CHARS ? `${text.slice(0, MAX_FIELD_CHARS)}...` : text) : ''));
    const message = escapeControlCharacters(refusal.message.length > maxMessageChars ? `${refusal.message.slice(0, maxMessageChars)}...` : refusal.message);
    const skipped = suppressed > 0 ? ` (${suppressed} earlier refusal(s) not logged)` : '';
    suppressed = 0;
    write(`refused ${method || '?'} ${path || '?'}${remoteAddress ? ` from ${remoteAddress}` : ''}: ${status} ${escapeControlCharacters(code)}${field ? ` (${field})` : ''}: ${message}${skipped}\n`);
  };
}

/** Longest method, path, address or field written (a path may be as long as the request head allows). */
const MAX_FIELD_CHARS = 200;

/**
 * Control and format characters (C0, DEL, C1, line and paragraph separators, bidirectional
 * overrides and isolates) that would let request text forge log lines, move the cursor or
 * recolour a terminal; each is written as its `\xNN` or `\uNNNN` escape instead.
 */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control character escaped, so a log line stays one line of plain text (issue 23). */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTER, (character) => {
    const code = character.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
