import { describe, expect, it } from 'vitest';
import { createUnscoredLogger } from './create-unscored-logger.js';
import type { QueriesUnscoredEvent } from './reward-app.js';

const event = (index: number): QueriesUnscoredEvent => ({
  type: 'queries-unscored',
  queries: 8,
  remoteAddress: '10.0.0.7',
  unscored: [{ index, code: 'query_prompt_mismatch', message: `query[${index}] does not start with prompts[${index}]` }],
});

describe('createUnscoredLogger', () => {
  it('writes one line per window, and counts the requests it held back in the next', () => {
    const lines: string[] = [];
    let nowMs = 0;
    const log = createUnscoredLogger((line) => lines.push(line), { windowMs: 1000, now: () => nowMs });
    log(event(3));
    nowMs = 500;
    log(event(4));
    log(event(5));
    nowMs = 1500;
    log(event(6));
    expect(lines).toEqual([
      'scored 1 of 8 queries from 10.0.0.7 as an empty plan: query[3] query_prompt_mismatch: query[3] does not start with prompts[3]\n',
      'scored 1 of 8 queries from 10.0.0.7 as an empty plan: query[6] query_prompt_mismatch: query[6] does not start with prompts[6] (and 2 unscored queries in 2 request(s) since the last line)\n',
    ]);
  });
});
