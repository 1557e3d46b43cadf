import type { ChatProvider } from './chat-provider.js';
import { withConcurrencyLimit } from './concurrency-limit.js';
import { createOpenAiProvider, type OpenAiProviderOptions } from './openai-provider.js';
import type { ProviderConfig } from './provider-config.js';
import { withResponseCache } from './response-cache.js';

/** A provider built from a config, with `close` to release what it opened (the cache file). */
export interface ConfiguredChatProvider extends ChatProvider {
  close(): void;
}

/**
 * Builds the provider a config describes: the implementation for its `type`, limited to
 * `concurrency` requests in flight, behind the response cache when `cache` is set (outside the
 * limit, so hits never queue).
 *
 * @example
 * const provider = createChatProvider(loadProviderConfig('provider.json'));
 * try { await provider.chat(request); } finally { provider.close(); }
 */
export function createChatProvider(config: ProviderConfig, options: OpenAiProviderOptions = {}): ConfiguredChatProvider {
  // One case per `type` of ProviderConfigSchema; a new provider type adds its branch here.
  const base = createOpenAiProvider(config, options);
  const limited = withConcurrencyLimit(base, config.concurrency);
  if (!config.cache) return { ...limited, close: () => {} };
  return withResponseCache(limited, { database: config.cache.path });
}
