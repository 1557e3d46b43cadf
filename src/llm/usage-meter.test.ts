import { describe, expect, it } from 'vitest';
import type { ChatProvider, ChatResponse } from './chat-provider.js';
import { ServerError } from './provider-errors.js';
import { RetryError } from './retry.js';
import { UsageMeter } from './usage-meter.js';

const usage = (promptTokens: number, completionTokens: number) => ({ promptTokens, completionTokens, totalTokens: promptTokens + completionTokens });

describe('UsageMeter', () => {
  it('totals by role, episode and node', () => {
    const meter = new UsageMeter();
    meter.record({ episodeId: 'e1', role: 'orchestrator', usage: usage(100, 50), attempts: 1 });
    meter.record({ episodeId: 'e1', nodeId: 'A', role: 'execution', usage: usage(10, 5), attempts: 3 });
    meter.record({ episodeId: 'e1', nodeId: 'A', role: 'execution', usage: usage(20, 5), attempts: 1, cached: true });
    meter.record({ episodeId: 'e1', nodeId: 'B', role: 'execution', usage: usage(1, 1), attempts: 1 });
    meter.record({ episodeId: 'e2', role: 'verification', usage: usage(7, 0), attempts: 1 });
    meter.record({ episodeId: 'e2', nodeId: 'A', role: 'execution', usage: usage(0, 0), attempts: 2, failed: true });

    expect(meter.total()).toEqual(usage(138, 61));
    expect(meter.byRole()).toEqual({ orchestrator: usage(100, 50), execution: usage(31, 11), verification: usage(7, 0) });
    expect(meter.byRole('e2')).toEqual({ orchestrator: usage(0, 0), execution: usage(0, 0), verification: usage(7, 0) });
    expect([...meter.byEpisode().keys()]).toEqual(['e1', 'e2']);
    expect(meter.byEpisode().get('e1')?.execution).toEqual(usage(31, 11));
    expect(meter.byNode('e1', 'A')).toEqual(usage(30, 10));
    expect(meter.byNode('e2', 'A')).toEqual(usage(0, 0));
    expect(meter.byNode('e1', 'missing')).toEqual(usage(0, 0));
    expect({ calls: meter.calls, failedCalls: meter.failedCalls, retries: meter.retries, cachedCalls: meter.cachedCalls }).toEqual({
      calls: 6,
      failedCalls: 1,
      retries: 3,
      cachedCalls: 1,
    });
    expect(meter.cachedUsage).toEqual(usage(20, 5));
  });

  it('tracks a provider, counting the attempts of failed calls', async () => {
    const response: ChatResponse = { text: 'x', usage: usage(3, 1), usageSource: 'provider', latencyMs: 1, model: 'm', attempts: 2, cached: false };
    let fail = false;
    const provider: ChatProvider = {
      name: 'scripted',
      chat: async () => {
        if (fail) throw new RetryError([new ServerError('a'), new ServerError('b'), new ServerError('c')], 'maxRetriesExceeded');
        return response;
      },
    };
    const meter = new UsageMeter();
    const tracked = meter.track(provider, { episodeId: 'e', nodeId: 'N', role: 'execution' });
    await tracked.chat({ slot: 'worker', messages: [] });
    fail = true;
    await expect(tracked.chat({ slot: 'worker', messages: [] })).rejects.toBeInstanceOf(RetryError);
    expect(meter.byNode('e', 'N')).toEqual(usage(3, 1));
    expect({ calls: meter.calls, failedCalls: meter.failedCalls, retries: meter.retries }).toEqual({ calls: 2, failedCalls: 1, retries: 3 });
  });
});
