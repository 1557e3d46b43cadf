import { z } from 'zod';
import type { ChatRequest } from '../../llm/index.js';
import type { ModelSlot } from '../../core/index.js';

/**
 * What `POST /v1/chat/completions` accepts. Fields the simulation cannot honour are rejected
 * with a message saying so (more than one choice, streaming, tools, non-text content) rather than
 * ignored, because a client relying on them would otherwise get silently wrong answers. Other
 * unknown fields (`user`, `top_p`, `logprobs: false`...) are accepted and ignored.
 */
export const ChatCompletionBodySchema = z.looseObject({
  model: z.string('model must be a string naming a served model (GET /v1/models lists them)').min(1, 'model must not be empty'),
  messages: z
    .array(
      z.looseObject({
        role: z.enum(['system', 'developer', 'user', 'assistant'], 'role must be system, developer, user or assistant (tool messages are not supported)'),
        content: z.string('content must be a string: this server does not accept content parts (text arrays, images, audio) or null content'),
      }),
      'messages must be an array of {role, content} objects',
    )
    .min(1, 'messages must hold at least one message'),
  temperature: z.number().min(0).max(2).nullish(),
  max_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  seed: z.number().int().nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(4)], 'stop must be a string or an array of up to 4 strings').nullish(),
  n: z.literal(1, 'n must be 1: this server returns one choice per request; send separate requests (with different seeds) for more').nullish(),
  stream: z.literal(false, 'streaming is not supported by this server; omit stream or send stream: false').nullish(),
  tools: z.array(z.unknown()).max(0, 'tools are not supported by this server; send the request without tools').nullish(),
  response_format: z
    .discriminatedUnion(
      'type',
      [
        z.looseObject({ type: z.literal('text') }),
        z.looseObject({ type: z.literal('json_object') }),
        z.looseObject({
          type: z.literal('json_schema'),
          json_schema: z.looseObject({ name: z.string().min(1), schema: z.record(z.string(), z.unknown()).optional() }),
        }),
      ],
      { error: 'response_format.type must be text, json_object or json_schema' },
    )
    .nullish(),
});
export type ChatCompletionBody = z.infer<typeof ChatCompletionBodySchema>;

/** The ChatRequest a validated body asks the provider for. */
export function toChatRequest(body: ChatCompletionBody, slot: ModelSlot, signal: AbortSignal): ChatRequest {
  const request: ChatRequest = {
    messages: body.messages.map((message) => ({ role: message.role, content: message.content })),
    slot,
    model: body.model,
    signal,
  };
  if (body.temperature != null) request.temperature = body.temperature;
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  if (maxTokens != null) request.maxTokens = maxTokens;
  if (body.seed != null) request.seed = body.seed;
  if (body.stop != null) request.stop = typeof body.stop === 'string' ? [body.stop] : body.stop;
  if (body.response_format?.type === 'json_schema') {
    const { name, schema } = body.response_format.json_schema;
    request.responseFormat = { type: 'json_schema', name, schema: schema ?? {} };
  }
  return request;
}
