import type { Dom, LlmCallRecord, OrchestratorRef } from '../core/index.js';
import { type ChatProvider, type ChatRequest, requestHash, responseCallFields, tokenLimitNote } from '../llm/index.js';
import { buildOrchestratorMessages, PLAN_SCHEMA_NAME, planJsonSchema, type BlockCatalog } from '../plan/index.js';
import type { Orchestrator, WritePlanOptions, WrittenPlan } from './orchestrator.js';

export interface LlmOrchestratorOptions {
  provider: ChatProvider;
  catalog: BlockCatalog;
  /** @default 'json' */
  format?: 'json' | 'xml';
  /** Constrains the plans asked for; `auto` lets the model choose. @default 'auto' */
  dom?: Dom | 'auto';
  /** Sampling temperature for plans; Best-of-N needs diversity. @default 1.0 */
  temperature?: number;
  /** @default 4096 */
  maxTokens?: number;
  /** Ask for JSON-schema structured output (JSON format only; the server must support it). @default false */
  structuredOutput?: boolean;
  /** Model asked for, overriding the provider's orchestrator model (e.g. a simulated checkpoint). */
  model?: string;
  /** Who is recorded as having written the plans. @default the model, else the provider name */
  ref?: OrchestratorRef;
}

/** An orchestrator that is an LLM: prompts from `plan/`, one call per plan, raw text kept. */
export function createLlmOrchestrator(options: LlmOrchestratorOptions): Orchestrator {
  const {
    provider,
    catalog,
    format = 'json',
    dom = 'auto',
    temperature = 1.0,
    maxTokens = 4096,
    structuredOutput = false,
  } = options;
  const ref: OrchestratorRef = options.ref ?? { name: options.model ?? provider.name };
  return {
    ref,
    format,
    dom: dom === 'auto' ? undefined : dom,
    async writePlan(task, writeOptions: WritePlanOptions): Promise<WrittenPlan> {
      const request: ChatRequest = {
        messages: buildOrchestratorMessages(task.question, { catalog, format, dom }),
        slot: 'orchestrator',
        ...(options.model !== undefined && { model: options.model }),
        temperature,
        maxTokens,
        seed: writeOptions.seed,
        sampleIndex: writeOptions.sampleIndex,
        ...(structuredOutput && format === 'json' && {
          // Optional block params keep the schema outside OpenAI's strict subset.
          responseFormat: { type: 'json_schema' as const, name: PLAN_SCHEMA_NAME, schema: planJsonSchema(catalog), strict: false },
        }),
        ...(writeOptions.signal !== undefined && { signal: writeOptions.signal }),
      };
      const response = await provider.chat(request);
      const call: LlmCallRecord = {
        index: 0,
        role: 'orchestrator',
        slot: 'orchestrator',
        messages: request.messages,
        requestHash: requestHash(request),
        ...responseCallFields(response),
        temperature,
        sampleIndex: writeOptions.sampleIndex,
      };
      const cutOff = response.cutOff ?? tokenLimitNote(request, response);
      return { text: response.text, call, ...(cutOff !== undefined && { cutOff }) };
    },
  };
}
