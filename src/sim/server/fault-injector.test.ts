import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../core/errors.js';
import { createFaultInjector } from './fault-injector.js';

describe('createFaultInjector', () => {
  it('injects each fault kind at its rate', () => {
    const injector = createFaultInjector({ rateLimitRate: 0.1, serverErrorRate: 0.05, truncateRate: 0.05, garbleRate: 0.02, dropRate: 0.03 }, 11);
    const counts: Record<string, number> = {};
    const draws = 20_000;
    for (let index = 0; index < draws; index++) {
      const kind = injector.decide(index).fault ?? 'none';
      counts[kind] = (counts[kind] ?? 0) + 1;
    }
    const expected = { none: 0.75, rateLimit: 0.1, serverError: 0.05, truncate: 0.05, garble: 0.02, drop: 0.03 };
    for (const [kind, rate] of Object.entries(expected)) {
      // 4 standard errors of a binomial share: a fixed seed makes this exact, the bound makes it meaningful.
      expect(Math.abs((counts[kind] ?? 0) / draws - rate)).toBeLessThan(4 * Math.sqrt((rate * (1 - rate)) / draws));
    }
  });

  it('decides each request from the seed and its index alone', () => {
    const injector = createFaultInjector({ rateLimitRate: 0.3, latencyMs: { medianMs: 20, p99Ms: 200 } }, 5);
    const forward = Array.from({ length: 50 }, (_, index) => injector.decide(index));
    const backward = Array.from({ length: 50 }, (_, index) => injector.decide(49 - index)).reverse();
    expect(backward).toStrictEqual(forward);
    expect(createFaultInjector({ rateLimitRate: 0.3, latencyMs: { medianMs: 20, p99Ms: 200 } }, 5).decide(7)).toStrictEqual(forward[7]);
    const otherSeed = Array.from({ length: 50 }, (_, index) => createFaultInjector({ rateLimitRate: 0.3, latencyMs: { medianMs: 20, p99Ms: 200 } }, 6).decide(index));
    expect(otherSeed).not.toStrictEqual(forward);
  });

  it('draws latencies with the configured median and 99th percentile', () => {
    const injector = createFaultInjector({ latencyMs: { medianMs: 50, p99Ms: 400 } }, 3);
    const delays = Array.from({ length: 20_000 }, (_, index) => injector.decide(index).delayMs).sort((left, right) => left - right);
    expect(delays[10_000]).toBeGreaterThan(47);
    expect(delays[10_000]).toBeLessThan(53);
    expect(delays[19_800]).toBeGreaterThan(360);
    expect(delays[19_800]).toBeLessThan(440);
    expect(delays.at(-1)).toBeLessThanOrEqual(1600);
  });

  it('gives a constant delay when p99 is 0 and none without latency', () => {
    expect(createFaultInjector({ latencyMs: { medianMs: 7, p99Ms: 0 } }).decide(3).delayMs).toBe(7);
    expect(createFaultInjector({}).decide(3)).toMatchObject({ fault: undefined, delayMs: 0 });
  });

  it('rejects rates that are out of range or sum above 1, and a p99 below the median', () => {
    expect(() => createFaultInjector({ rateLimitRate: 1.5 })).toThrow(InvalidInputError);
    expect(() => createFaultInjector({ rateLimitRate: 0.6, dropRate: 0.6 })).toThrow(/must sum to at most 1/);
    expect(() => createFaultInjector({ latencyMs: { medianMs: 100, p99Ms: 10 } })).toThrow(/p99Ms/);
  });
});
