import { addUsage, emptyUsage, emptyUsageByRole, type TokenRole, type Usage, type UsageByRole } from '../core/index.js';
import type { ChatProvider, ChatResponse } from './chat-provider.js';
import { RetryError } from './retry.js';

/** Who a call's tokens are charged to. */
export interface UsageAttribution {
  episodeId: string;
  /** The plan node; absent for the orchestrator call and episode-level verification. */
  nodeId?: string;
  role: TokenRole;
}

/** One call as the meter sees it. */
export interface MeteredCall extends UsageAttribution {
  /** Zero for failed calls: a failed request reports no usage. */
  usage: Usage;
  /** HTTP attempts, retries included. */
  attempts: number;
  cached?: boolean;
  failed?: boolean;
}

/**
 * Attributes every call's tokens to an episode, a node and a role (orchestrator, execution,
 * verification), and counts calls, failures, retries and cache hits. Cached responses count at
 * their original cost in the totals, so an episode costs the same whether or not it was served
 * from cache; `cachedUsage` says how much of that this run did not pay for.
 *
 * @example
 * const meter = new UsageMeter();
 * const provider = meter.track(baseProvider, { episodeId: 'ep_1', nodeId: 'A', role: 'execution' });
 * await provider.chat(request);
 * meter.byRole().execution.totalTokens;
 */
export class UsageMeter {
  private readonly entries = new Map<string, { episodeId: string; nodeId: string | undefined; role: TokenRole; usage: Usage }>();
  private counts = { calls: 0, failedCalls: 0, retries: 0, cachedCalls: 0 };
  private cached = emptyUsage();
  private allTokens = 0;

  /** Records one call. */
  record(call: MeteredCall): void {
    this.counts.calls++;
    this.allTokens += call.usage.totalTokens;
    this.counts.retries += Math.max(0, call.attempts - 1);
    if (call.failed) this.counts.failedCalls++;
    if (call.cached) {
      this.counts.cachedCalls++;
      this.cached = addUsage(this.cached, call.usage);
    }
    const key = `${call.episodeId}\u0000${call.nodeId ?? ''}\u0000${call.role}`;
    const entry = this.entries.get(key);
    if (entry) entry.usage = addUsage(entry.usage, call.usage);
    else this.entries.set(key, { episodeId: call.episodeId, nodeId: call.nodeId, role: call.role, usage: addUsage(call.usage) });
  }

  /** Records a successful response. */
  recordResponse(attribution: UsageAttribution, response: ChatResponse): void {
    this.record({ ...attribution, usage: response.usage, attempts: response.attempts, cached: response.cached });
  }

  /** Records a call that threw; a RetryError tells how many attempts it spent. */
  recordFailure(attribution: UsageAttribution, error: unknown): void {
    const attempts = error instanceof RetryError ? error.attempts : 1;
    this.record({ ...attribution, usage: emptyUsage(), attempts, failed: true });
  }

  /** A provider that records every call it answers (or fails) under `attribution`. */
  track(provider: ChatProvider, attribution: UsageAttribution): ChatProvider {
    return {
      name: provider.name,
      ...(provider.resolveModel !== undefined && { resolveModel: provider.resolveModel.bind(provider) }),
      chat: async (request) => {
        try {
          const response = await provider.chat(request);
          this.recordResponse(attribution, response);
          return response;
        } catch (error) {
          this.recordFailure(attribution, error);
          throw error;
        }
      },
    };
  }

  /** Calls recorded, failed ones included. */
  get calls(): number {
    return this.counts.calls;
  }

  get failedCalls(): number {
    return this.counts.failedCalls;
  }

  /** Attempts beyond the first, over all calls. */
  get retries(): number {
    return this.counts.retries;
  }

  get cachedCalls(): number {
    return this.counts.cachedCalls;
  }

  /** Tokens of responses served from the cache (included in every total). */
  get cachedUsage(): Usage {
    return addUsage(this.cached);
  }

  /** All tokens, every role; kept as calls are recorded, so progress reports can read it often. */
  totalTokens(): number {
    return this.allTokens;
  }

  /** All tokens. */
  total(): Usage {
    return addUsage(...[...this.entries.values()].map((entry) => entry.usage));
  }

  /** Tokens per role, over all episodes or one. */
  byRole(episodeId?: string): UsageByRole {
    const totals = emptyUsageByRole();
    for (const entry of this.entries.values()) {
      if (episodeId === undefined || entry.episodeId === episodeId) totals[entry.role] = addUsage(totals[entry.role], entry.usage);
    }
    return totals;
  }

  /** Tokens per role for each episode, in first-recorded order. */
  byEpisode(): Map<string, UsageByRole> {
    const result = new Map<string, UsageByRole>();
    for (const entry of this.entries.values()) {
      const totals = result.get(entry.episodeId) ?? emptyUsageByRole();
      totals[entry.role] = addUsage(totals[entry.role], entry.usage);
      result.set(entry.episodeId, totals);
    }
    return result;
  }

  /** Tokens of one node of one episode, all roles. */
  byNode(episodeId: string, nodeId: string): Usage {
    const usages = [...this.entries.values()].filter((entry) => entry.episodeId === episodeId && entry.nodeId === nodeId).map((entry) => entry.usage);
    return addUsage(...usages);
  }
}
