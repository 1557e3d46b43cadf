import type { EventSink } from '../core/index.js';
import type { QueriesUnscoredEvent } from './reward-app.js';

export interface UnscoredLoggerOptions {
  /** At most one line per window; the requests in between are summed into the next line. @default 10000 @unit milliseconds */
  windowMs?: number;
  /** @default Date.now @unit milliseconds */
  now?: () => number;
}

/**
 * A `queries-unscored` event sink that writes a line such as
 * `scored 1 of 8 queries from 10.0.0.7 as an empty plan: query[3] query_prompt_mismatch: query[3] does not start ...`,
 * at most one per window: OpenRLHF 0.9.1 and later send one request per sample, so a prompt
 * template that never matches would otherwise write a line per sample. The queries of the
 * requests not written are counted in the next line, and all of them in
 * `orchrm_unscored_queries_total`.
 *
 * @example
 * const server = await startRewardServer({ model, events: (event) => event.type === 'queries-unscored' && logUnscored(event) });
 */
export function createUnscoredLogger(write: (line: string) => void, options: UnscoredLoggerOptions = {}): EventSink<QueriesUnscoredEvent> {
  const { windowMs = 10_000, now = Date.now } = options;
  let lastWrittenMs = -Infinity;
  let heldQueries = 0;
  let heldRequests = 0;
  return ({ queries, unscored, remoteAddress }) => {
    const atMs = now();
    if (atMs - lastWrittenMs < windowMs) {
      heldQueries += unscored.length;
      heldRequests++;
      return;
    }
    lastWrittenMs = atMs;
    const [first] = unscored;
    const held = heldRequests > 0 ? ` (and ${heldQueries} unscored queries in ${heldRequests} request(s) since the last line)` : '';
    heldQueries = 0;
    heldRequests = 0;
    const example = first ? `: query[${first.index}] ${first.code}: ${first.message}` : '';
    write(`scored ${unscored.length} of ${queries} queries${remoteAddress ? ` from ${remoteAddress}` : ''} as an empty plan${example}${held}\n`);
  };
}
