import { z } from 'zod';
import { TokenRoleSchema, UsageSchema } from './usage.js';

export const ChatMessageSchema = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant']),
  content: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** Which model slot a call uses; a provider config maps each to a concrete model. */
export const ModelSlotSchema = z.enum(['orchestrator', 'worker', 'judge']);
export type ModelSlot = z.infer<typeof ModelSlotSchema>;

/** The durable record of one LLM call, as stored in a NodeTrace. */
export const LlmCallRecordSchema = z.object({
  /** Position of the call inside its node (or 0 for the orchestrator call). */
  index: z.number().int().nonnegative(),
  role: TokenRoleSchema,
  slot: ModelSlotSchema,
  model: z.string(),
  /** Full prompt messages; omitted when the store is configured not to keep prompts. */
  messages: z.array(ChatMessageSchema).optional(),
  /** sha256 of the canonical request, so calls can be matched even when prompts are not kept. */
  requestHash: z.string(),
  response: z.string(),
  /**
   * The model's reasoning, kept apart from `response`: a reasoning field of the server's reply
   * (`reasoning_content`, `reasoning`) or `<think>…</think>` taken out of its content.
   */
  reasoning: z.string().optional(),
  usage: UsageSchema,
  usageSource: z.enum(['provider', 'counted']),
  latencyMs: z.number().nonnegative(),
  attempts: z.number().int().positive(),
  /** Why each failed attempt before the last one failed (retries), in order. */
  attemptErrors: z.array(z.string()).optional(),
  cached: z.boolean(),
  temperature: z.number().optional(),
  sampleIndex: z.number().int().nonnegative().optional(),
  /** Set when the call failed after all retries; `response` is then empty. */
  error: z.string().optional(),
});
export type LlmCallRecord = z.infer<typeof LlmCallRecordSchema>;
