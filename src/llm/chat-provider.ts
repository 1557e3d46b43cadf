import type { ChatMessage, ModelSlot, Usage } from '../core/index.js';

/** A JSON-schema structured-output request (OpenAI `response_format: {type: 'json_schema'}`). */
export interface JsonSchemaFormat {
  type: 'json_schema';
  name: string;
  schema: Record<string, unknown>;
  /** OpenAI strict mode: the schema must then mark every property required. @default true */
  strict?: boolean;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** Which configured model answers: the orchestrator, a worker, or the judge. */
  slot: ModelSlot;
  /** Overrides the slot's model (a plan node may name its own worker model). */
  model?: string;
  /** @default provider default */
  temperature?: number;
  maxTokens?: number;
  /** Nucleus sampling (top_p). @default provider default */
  topP?: number;
  /** reasoning_effort, for models that take it. @default provider default */
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
  seed?: number;
  stop?: string[];
  responseFormat?: JsonSchemaFormat;
  /**
   * Distinguishes repeated identical requests (self-consistency samples, several plans for one
   * task) so the response cache keeps them apart while staying reproducible.
   * @default 0
   */
  sampleIndex?: number;
  signal?: AbortSignal;
}

export interface ChatResponse {
  text: string;
  usage: Usage;
  /** `provider` when the server reported usage, `counted` when we tokenised it ourselves. */
  usageSource: 'provider' | 'counted';
  latencyMs: number;
  model: string;
  /** HTTP attempts spent, retries included. */
  attempts: number;
  /** Why each failed attempt before the successful one failed, in order (empty when none did). */
  attemptErrors?: string[];
  cached: boolean;
  finishReason?: string;
  /** When the reply ended at its token limit: which limit, and the config field that raises it (`tokenLimitNote`, set by `withGenerationSettings`). */
  cutOff?: string;
  /**
   * The model's reasoning, kept apart from `text`: a separate `reasoning_content`/`reasoning`
   * field, or `<think>…</think>` taken out of the content (see `splitReasoning`).
   */
  reasoning?: string;
}

/** Anything that answers chat requests: an OpenAI-compatible server, the simulation, a script. */
export interface ChatProvider {
  readonly name: string;
  chat(request: ChatRequest): Promise<ChatResponse>;
  /**
   * The model a request is sent to (its `model`, else the slot's configured model). Providers
   * that know it let the response cache key by what is actually sent, so changing one slot's
   * model leaves the other slots' entries valid.
   */
  resolveModel?(request: ChatRequest): string;
}
