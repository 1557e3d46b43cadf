import { describe, expect, it } from 'vitest';
import { createRefusalLogger } from './create-refusal-logger.js';
import type { Refusal } from './reward-app.js';

const refusal: Refusal = { method: 'POST', path: '/get_reward', route: '/get_reward', status: 400, code: 'query_prompt_mismatch', field: 'query[3]', message: 'query[3] does not start with prompts[3]', remoteAddress: '127.0.0.1' };

describe('createRefusalLogger', () => {
  it('writes one line per refusal naming route, client, status, code, field and reason', () => {
    const lines: string[] = [];
    createRefusalLogger((line) => lines.push(line))({ type: 'request-refused', refusal });
    expect(lines).toEqual(['refused POST /get_reward from 127.0.0.1: 400 query_prompt_mismatch (query[3]): query[3] does not start with prompts[3]\n']);
  });

  it('writes at most maxLinesPerWindow lines per window and says how many it skipped', () => {
    const lines: string[] = [];
    let clockMs = 0;
    const log = createRefusalLogger((line) => lines.push(line), { maxLinesPerWindow: 2, windowMs: 1000, now: () => clockMs, maxMessageChars: 8 });
    for (let index = 0; index < 5; index++) log({ type: 'request-refused', refusal });
    clockMs = 1000;
    log({ type: 'request-refused', refusal: { ...refusal, field: undefined as never, remoteAddress: undefined as never, code: 'invalid_json' } as Refusal });
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('refused POST /get_reward: 400 invalid_json: query[3]... (3 earlier refusal(s) not logged)\n');
  });
});
