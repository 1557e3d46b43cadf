import type { EventSink, LogEvent } from '../core/index.js';
import type { ChatProvider, ChatRequest, ChatResponse } from './chat-provider.js';
import type { GenerationConfig } from './provider-config.js';

/**
 * What to say about a reply that ended at its token limit (finish_reason "length"), or undefined
 * when it did not: which limit, whether the model was still reasoning with no answer written,
 * and the provider-config field that raises it.
 *
 * @example tokenLimitNote({ slot: 'orchestrator', maxTokens: 4096 }, response)
 * // 'it ended at max_tokens 4096 inside its reasoning, with no answer written (finish_reason "length"); raise generation.orchestrator.maxTokens in the provider config'
 */
export function tokenLimitNote(request: Pick<ChatRequest, 'slot' | 'maxTokens'>, response: Pick<ChatResponse, 'finishReason' | 'text' | 'reasoning'>): string | undefined {
  if (response.finishReason !== 'length') return undefined;
  const limit = request.maxTokens === undefined ? "the server's default token limit" : `max_tokens ${request.maxTokens}`;
  const where = response.text.trim() === '' && (response.reasoning ?? '') !== '' ? ' inside its reasoning, with no answer written' : '';
  return `it ended at ${limit}${where} (finish_reason "length"); raise generation.${request.slot}.maxTokens in the provider config`;
}

/**
 * Sends each role's generation settings (`generation` of the provider config) in place of the
 * request's own, and says once per role, on `events` or stderr, when a reply ended at its token
 * limit. Wraps the response cache from outside, so the cache keys on what is really sent and a
 * raised limit is not answered from replies cut at the old one.
 */
export function withGenerationSettings<Provider extends ChatProvider>(provider: Provider, generation: GenerationConfig, events?: EventSink<LogEvent>): Provider {
  const warned = new Set<string>();
  return {
    ...provider,
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const settings = generation[request.slot];
      const sent: ChatRequest = settings === undefined ? request : { ...request, ...settings };
      const response = await provider.chat(sent);
      const note = tokenLimitNote(sent, response);
      if (note === undefined) return response;
      if (!warned.has(request.slot)) {
        warned.add(request.slot);
        const message = `a reply to the ${request.slot} (model ${response.model}) was cut off: ${note}`;
        if (events) events({ type: 'log', level: 'warn', source: 'provider', message });
        else process.stderr.write(`orchrm: warning: ${message}\n`);
      }
      return { ...response, cutOff: note };
    },
  };
}
