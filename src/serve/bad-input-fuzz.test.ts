import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../core/is-loopback-host.js';
import { createRewardApp } from './reward-app.js';
import { createLengthRewardModel } from './test-fixtures/fake-reward-models.js';

const app = createRewardApp({ model: createLengthRewardModel(), maxPlans: 16 });
const routes = ['/v1/score', '/get_reward'];

/** Every answer is a 200 with the right number of scores, or a 4xx with a JSON error naming the problem; never a 5xx. */
async function expectHandled(path: string, body: string): Promise<void> {
  const response = await app.request({ method: 'POST', path, body });
  const json = JSON.parse(response.body) as { scores?: number[]; rewards?: number[]; error?: { message: string; code: string } };
  if (response.status === 200) {
    expect(Array.isArray(json.scores)).toBe(true);
    return;
  }
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  expect(json.error?.message.length).toBeGreaterThan(10);
}

describe('fuzzed request bodies', () => {
  it('answers arbitrary JSON values with 200 or a 4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.jsonValue(), async (path, value) => expectHandled(path, JSON.stringify(value))),
      { numRuns: 300, seed: 1 },
    );
  });

  it('answers near-valid bodies (right keys, arbitrary values) with 200 or a 4xx', async () => {
    const scoreBody = fc.record({ task: fc.jsonValue(), plans: fc.oneof(fc.array(fc.jsonValue(), { maxLength: 20 }), fc.array(fc.string(), { maxLength: 20 })) }, { requiredKeys: [] });
    const rewardBody = fc.record(
      { query: fc.array(fc.oneof(fc.string(), fc.jsonValue()), { maxLength: 20 }), prompts: fc.array(fc.string(), { maxLength: 20 }), labels: fc.jsonValue() },
      { requiredKeys: [] },
    );
    await fc.assert(fc.asyncProperty(scoreBody, async (body) => expectHandled('/v1/score', JSON.stringify(body))), { numRuns: 300, seed: 2 });
    await fc.assert(fc.asyncProperty(rewardBody, async (body) => expectHandled('/get_reward', JSON.stringify(body))), { numRuns: 300, seed: 3 });
  });

  it('answers arbitrary text with 200 or a 4xx', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...routes), fc.string({ unit: 'binary' }), async (path, text) => expectHandled(path, text)), { numRuns: 300, seed: 4 });
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['127.0.0.1.example.com', false],
  ])('%s -> %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});
