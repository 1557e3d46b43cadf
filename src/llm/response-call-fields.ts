import type { LlmCallRecord } from '../core/index.js';
import type { ChatResponse } from './chat-provider.js';

/** The fields of a call record that come from the provider's response. */
export type ResponseCallFields = Pick<LlmCallRecord, 'model' | 'response' | 'usage' | 'usageSource' | 'latencyMs' | 'attempts' | 'cached' | 'attemptErrors' | 'reasoning'>;

/** What a call record keeps of a response: text, reasoning, usage, latency, attempts and why retried ones failed. */
export function responseCallFields(response: ChatResponse): ResponseCallFields {
  return {
    model: response.model,
    response: response.text,
    usage: response.usage,
    usageSource: response.usageSource,
    latencyMs: response.latencyMs,
    attempts: Math.max(1, response.attempts),
    cached: response.cached,
    ...(response.attemptErrors !== undefined && response.attemptErrors.length > 0 && { attemptErrors: response.attemptErrors }),
    ...(response.reasoning !== undefined && { reasoning: response.reasoning }),
  };
}
