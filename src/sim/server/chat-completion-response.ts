import type { ChatResponse } from '../../llm/index.js';

/** An OpenAI `chat.completion` object with one choice. */
export interface ChatCompletionResponse {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: {
    index: number;
    message: { role: 'assistant'; content: string; refusal: null };
    logprobs: null;
    finish_reason: string;
  }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/**
 * Wraps a provider response as a chat completion. `usage` is the provider's (the simulation
 * bills hidden reasoning tokens the text does not show). `created` is 0 and the id a counter so
 * that the same request sequence gives byte-identical bodies.
 */
export function chatCompletionResponse(response: ChatResponse, requestedModel: string, completionIndex: number): ChatCompletionResponse {
  return {
    id: `chatcmpl-sim-${completionIndex}`,
    object: 'chat.completion',
    created: 0,
    model: response.model || requestedModel,
    choices: [{ index: 0, message: { role: 'assistant', content: response.text, refusal: null }, logprobs: null, finish_reason: response.finishReason ?? 'stop' }],
    usage: {
      prompt_tokens: response.usage.promptTokens,
      completion_tokens: response.usage.completionTokens,
      total_tokens: response.usage.totalTokens,
    },
  };
}
