export type { ChatProvider, ChatRequest, ChatResponse, JsonSchemaFormat } from './chat-provider.js';
export { checkServedModels, ModelNotServedError, type CheckServedModelsOptions, type NeededModel, type ServedModels } from './check-served-models.js';
export { withConcurrencyLimit } from './concurrency-limit.js';
export { createChatProvider, type ConfiguredChatProvider, type CreateChatProviderOptions } from './create-chat-provider.js';
export { createOpenAiProvider, type OpenAiProviderOptions } from './openai-provider.js';
export {
  CacheConfigSchema,
  ModelsConfigSchema,
  OpenAiProviderConfigSchema,
  ProviderConfigSchema,
  loadProviderConfig,
  parseProviderConfig,
  type OpenAiProviderConfig,
  type OpenAiProviderConfigInput,
  type ProviderConfig,
  type ProviderConfigInput,
} from './provider-config.js';
export {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  MAX_RETRY_AFTER_MS,
  MalformedResponseError,
  ProviderError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
  parseRetryAfterMs,
  providerErrorFromStatus,
  toProviderError,
  type ProviderErrorContext,
} from './provider-errors.js';
export {
  RESPONSE_CACHE_FORMAT_VERSION,
  requestHash,
  sentRequestHash,
  withResponseCache,
  type CachedChatProvider,
  type ResponseCacheOptions,
} from './response-cache.js';
export {
  RetryError,
  abortableSleep,
  isRetryableError,
  retryDelayMs,
  withRetry,
  type AttemptError,
  type RetryOptions,
  type RetryReason,
  type RetryResult,
} from './retry.js';
export { isServerFailure } from './server-failure.js';
export { responseCallFields, type ResponseCallFields } from './response-call-fields.js';
export { createParameterMemory, refusedParameter, type ModelParameters, type OmittableParameter, type ParameterLesson, type ParameterMemory, type TokenLimitField } from './parameter-memory.js';
export { joinReasoning, splitReasoning, type SplitReasoning } from './split-reasoning.js';
export { countMessageTokens, countTokens } from './token-counter.js';
export { UsageMeter, type MeteredCall, type UsageAttribution } from './usage-meter.js';
