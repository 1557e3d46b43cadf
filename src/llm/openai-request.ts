import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { ChatRequest } from './chat-provider.js';

/**
 * Turns a ChatRequest into chat-completions parameters. `responseFormat` becomes
 * `response_format: json_schema` only when `withSchema` is set (the server supports it).
 */
export function toChatCompletionParams(request: ChatRequest, model: string, withSchema: boolean): ChatCompletionCreateParamsNonStreaming {
  const params: ChatCompletionCreateParamsNonStreaming = {
    model,
    messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
  };
  if (request.temperature !== undefined) params.temperature = request.temperature;
  // `max_tokens` rather than `max_completion_tokens`: vLLM, Ollama and llama.cpp all accept it.
  if (request.maxTokens !== undefined) params.max_tokens = request.maxTokens;
  if (request.seed !== undefined) params.seed = request.seed;
  if (request.stop !== undefined && request.stop.length > 0) params.stop = request.stop;
  if (withSchema && request.responseFormat) {
    params.response_format = {
      type: 'json_schema',
      json_schema: { name: request.responseFormat.name, schema: request.responseFormat.schema, strict: request.responseFormat.strict ?? true },
    };
  }
  return params;
}
