import { z } from 'zod';
import type { Usage } from '../core/index.js';
import { MalformedResponseError } from './provider-errors.js';
import { joinReasoning, splitReasoning } from './split-reasoning.js';

// Only what orchrm reads; servers add many more fields, all ignored.
const CompletionSchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          // Reasoning returned beside the content: `reasoning_content` (DeepSeek, vLLM's reasoning
          // parsers before 0.10) and `reasoning` (vLLM since, OpenRouter). Other types are ignored.
          reasoning_content: z.unknown().optional(),
          reasoning: z.unknown().optional(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1, 'the response has no choices'),
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
      total_tokens: z.number().int().nonnegative().optional(),
    })
    .nullish(),
});

export interface ParsedCompletion {
  /** The answer, without reasoning (see `splitReasoning`). */
  text: string;
  /** The model's reasoning, from a separate field or from `<think>` in the content. */
  reasoning?: string;
  /** Undefined when the server did not report usage. */
  usage?: Usage;
  model?: string;
  finishReason?: string;
}

/** Validates a chat completion body; a body that is JSON but not a completion is malformed (retried). */
export function parseCompletion(body: unknown, baseURL: string): ParsedCompletion {
  const result = CompletionSchema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new MalformedResponseError(
      `${baseURL} sent a body that is not a chat completion (${issue?.path.join('.') || 'body'}: ${issue?.message})`,
      { cause: result.error },
    );
  }
  const { model, choices, usage } = result.data;
  const choice = choices[0];
  const message = choice?.message;
  const split = splitReasoning(message?.content ?? message?.refusal ?? '');
  const parsed: ParsedCompletion = { text: split.text };
  const reasoning = joinReasoning(stringOrUndefined(message?.reasoning_content) ?? stringOrUndefined(message?.reasoning), split.reasoning);
  if (reasoning !== undefined) parsed.reasoning = reasoning;
  if (usage) {
    parsed.usage = {
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      totalTokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens,
    };
  }
  if (model) parsed.model = model;
  if (choice?.finish_reason) parsed.finishReason = choice.finish_reason;
  return parsed;
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
