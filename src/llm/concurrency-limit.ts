import pLimit from 'p-limit';
import type { ChatProvider } from './chat-provider.js';

/**
 * Wraps a provider so at most `limit` of its requests are in flight; the rest wait in order.
 * Put it inside the response cache, so cache hits never wait for a slot.
 *
 * @example
 * const provider = withConcurrencyLimit(createOpenAiProvider(config), 8);
 */
export function withConcurrencyLimit(provider: ChatProvider, limit: number): ChatProvider {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`withConcurrencyLimit: limit must be a positive integer, got ${limit}`);
  }
  const queue = pLimit(limit);
  return {
    name: provider.name,
    ...(provider.resolveModel !== undefined && { resolveModel: provider.resolveModel.bind(provider) }),
    chat: (request) =>
      queue(() => {
        // A request aborted while it queued should not take a slot.
        request.signal?.throwIfAborted();
        return provider.chat(request);
      }),
  };
}
