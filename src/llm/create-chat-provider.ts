import type { ChatProvider } from './chat-provider.js';
import { withConcurrencyLimit } from './concurrency-limit.js';
import { createOpenAiProvider, type OpenAiProviderOptions } from './openai-provider.js';
import type { ProviderConfig } from './provider-config.js';
import { withGenerationSettings } from './generation-settings.js';
import { withResponseCache, type ResponseCacheOptions } from './response-cache.js';

/** A provider built from a config, with `close` to release what it opened (the cache file). */
export interface ConfiguredChatProvider extends ChatProvider {
  close(): void;
}

export interface CreateChatProviderOptions extends OpenAiProviderOptions {
  /**
   * Response cache database (an open better-sqlite3 Database or a path), e.g. the run store's
   * file. Overrides the config's `cache.path`. @default config.cache?.path (no cache when unset)
   */
  cacheDatabase?: ResponseCacheOptions['database'];
}

/**
 * Builds the provider a config describes: the implementation for its `type`, limited to
 * `concurrency` requests in flight, behind the response cache when one is configured (outside
 * the limit, so hits never queue), and outside that each role's `generation` settings.
 *
 * @example
 * const provider = createChatProvider(loadProviderConfig('provider.json'), { cacheDatabase: 'runs.db' });
 * try { await provider.chat(request); } finally { provider.close(); }
 */
export function createChatProvider(config: ProviderConfig, options: CreateChatProviderOptions = {}): ConfiguredChatProvider {
  const { cacheDatabase = config.cache?.path, ...providerOptions } = options;
  // One case per `type` of ProviderConfigSchema; a new provider type adds its branch here.
  const base = createOpenAiProvider(config, providerOptions);
  const limited = withConcurrencyLimit(base, config.concurrency);
  // Caches written by earlier orchrm versions were keyed under the provider's name; keep reading them.
  const cached = cacheDatabase === undefined ? { ...limited, close: () => {} } : withResponseCache(limited, { database: cacheDatabase, legacyNamespace: base.name });
  return withGenerationSettings(cached, config.generation, providerOptions.events);
}
