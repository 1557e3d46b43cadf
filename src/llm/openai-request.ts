import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { ChatRequest } from './chat-provider.js';
import type { ModelParameters } from './parameter-memory.js';

/** How a request is put for one server and model. */
export interface RequestShape {
  /** Send `response_format: json_schema` (the server supports it). */
  withSchema: boolean;
  /** What the model accepts, as learned (see `createParameterMemory`). */
  parameters: ModelParameters;
}

/**
 * Turns a ChatRequest into chat-completions parameters. `responseFormat` becomes
 * `response_format: json_schema` only when `withSchema` is set; the token limit goes in the field
 * the model takes, and parameters it refused are left out.
 */
export function toChatCompletionParams(request: ChatRequest, model: string, shape: RequestShape): ChatCompletionCreateParamsNonStreaming {
  const { withSchema, parameters } = shape;
  const { omitted, tokenLimitField } = parameters;
  const params: ChatCompletionCreateParamsNonStreaming = {
    model,
    messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
  };
  if (request.temperature !== undefined && !omitted.has('temperature')) params.temperature = request.temperature;
  if (request.maxTokens !== undefined && tokenLimitField !== null) params[tokenLimitField] = request.maxTokens;
  if (request.topP !== undefined && !omitted.has('top_p')) params.top_p = request.topP;
  if (request.reasoningEffort !== undefined && !omitted.has('reasoning_effort')) params.reasoning_effort = request.reasoningEffort;
  if (request.seed !== undefined && !omitted.has('seed')) params.seed = request.seed;
  if (request.stop !== undefined && request.stop.length > 0 && !omitted.has('stop')) params.stop = request.stop;
  if (withSchema && request.responseFormat) {
    params.response_format = {
      type: 'json_schema',
      json_schema: { name: request.responseFormat.name, schema: request.responseFormat.schema, strict: request.responseFormat.strict ?? true },
    };
  }
  return params;
}
