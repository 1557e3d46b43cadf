import OpenAI, { type ClientOptions } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { EventSink, LogEvent, Usage } from '../core/index.js';
import type { ChatProvider, ChatRequest, ChatResponse } from './chat-provider.js';
import { parseCompletion, type ParsedCompletion } from './openai-response.js';
import { toChatCompletionParams } from './openai-request.js';
import { createParameterMemory } from './parameter-memory.js';
import { parseProviderConfig, type OpenAiProviderConfigInput } from './provider-config.js';
import { BadRequestError, RequestTimeoutError, toProviderError, type ProviderErrorContext } from './provider-errors.js';
import { RetryError, withRetry, type RetryOptions } from './retry.js';
import { countMessageTokens, countTokens } from './token-counter.js';

/** Runtime dependencies of the OpenAI provider; tests inject them. */
export interface OpenAiProviderOptions {
  /** Where the API key is read from. @default process.env */
  env?: Record<string, string | undefined>;
  /** Passed to the `openai` client. @default globalThis.fetch */
  fetch?: ClientOptions['fetch'];
  /** Backoff settings and hooks for `withRetry`; `maxRetries` comes from the config. */
  retry?: Omit<RetryOptions, 'maxRetries' | 'signal'>;
  /**
   * Told once per model and parameter when the server refuses one and the provider changes what
   * it sends (e.g. `max_completion_tokens` for `max_tokens`), as a `warn` log event of source
   * `provider`. @default writes `orchrm: <message>` to stderr
   */
  events?: EventSink<LogEvent>;
}

/** Rejected requests re-sent in a new form before giving up (one per adaptable parameter, plus the schema). */
const MAX_ADAPTATIONS = 6;

/**
 * A ChatProvider for any OpenAI-compatible server, on the official `openai` client.
 * Retries are ours (see retry.ts), so the client is built with `maxRetries: 0`.
 *
 * @example
 * const provider = createOpenAiProvider({ baseURL: 'http://127.0.0.1:8000/v1', models: { orchestrator: 'qwen', worker: 'qwen', judge: 'qwen' } });
 * const response = await provider.chat({ slot: 'worker', messages: [{ role: 'user', content: '2+2?' }] });
 */
export function createOpenAiProvider(
  config: Omit<OpenAiProviderConfigInput, 'type'> & { type?: 'openai' },
  options: OpenAiProviderOptions = {},
): ChatProvider {
  // An InvalidInputError naming the field (e.g. maxRetries out of range), not a raw ZodError.
  const parsed = parseProviderConfig({ ...config, type: 'openai' }, 'OpenAI provider config');
  const { baseURL, apiKeyEnv, models, timeoutMs, maxRetries, structuredOutput } = parsed;
  const env = options.env ?? process.env;
  // Local servers (vLLM, Ollama, llama.cpp) usually need no key, and the client refuses to start
  // without one, so a missing key becomes a placeholder; a server that wants a real key answers
  // 401, which names `apiKeyEnv`.
  const apiKeyMissing = !env[apiKeyEnv];
  const apiKey = env[apiKeyEnv] || 'no-key-set';
  const clientOptions: ClientOptions = { baseURL, apiKey, timeout: timeoutMs, maxRetries: 0 };
  if (options.fetch) clientOptions.fetch = options.fetch;
  const client = new OpenAI(clientOptions);
  const context: ProviderErrorContext = { baseURL, apiKeyEnv, timeoutMs, apiKeyMissing };
  // Flipped off for the provider's lifetime once the server rejects json_schema but accepts the request without it.
  let schemaSupported = structuredOutput;
  // OpenAI's API takes max_completion_tokens for every model (its reasoning models refuse max_tokens);
  // the servers people run locally read max_tokens. Either way, what a model refuses is learned.
  const parameters = createParameterMemory(isOpenAiApi(baseURL) ? 'max_completion_tokens' : 'max_tokens');
  const warn = (message: string): void => {
    if (options.events) options.events({ type: 'log', level: 'warn', source: 'provider', message });
    else process.stderr.write(`orchrm: ${message}\n`);
  };

  async function attempt(request: ChatRequest, params: ChatCompletionCreateParamsNonStreaming): Promise<ParsedCompletion> {
    const controller = new AbortController();
    let timedOut = false;
    // Our own timer covers reading the body too; the client's `timeout` stops at the headers.
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    // A signal of its own rather than a listener on the caller's: a collection passes one signal
    // to every call, and one listener per call in flight trips Node's MaxListenersExceededWarning.
    const signal = request.signal ? AbortSignal.any([request.signal, controller.signal]) : controller.signal;
    try {
      const body: unknown = await client.chat.completions.create(params, { signal });
      return parseCompletion(body, baseURL);
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      if (timedOut) {
        throw new RequestTimeoutError(`${baseURL} did not answer within ${timeoutMs} ms; raise "timeoutMs" in the provider config if the model is slow`, timeoutMs, { cause: error });
      }
      throw toProviderError(error, context);
    } finally {
      clearTimeout(timer);
    }
  }

  function send(request: ChatRequest, params: ChatCompletionCreateParamsNonStreaming) {
    const retryOptions: RetryOptions = { ...options.retry, maxRetries };
    // The backoff waits listen on a signal of this call's own, for the same reason as in `attempt`.
    if (request.signal) retryOptions.signal = AbortSignal.any([request.signal]);
    return withRetry(() => attempt(request, params), retryOptions);
  }

  /**
   * Sends the request in the form the model accepts. A 400 naming a parameter the model refuses
   * teaches the memory and sends again; a 400 while asking for json_schema sends again without
   * it. Every rejected attempt is kept in the result's errors.
   */
  async function sendAdapting(request: ChatRequest, model: string): Promise<Awaited<ReturnType<typeof send>> & { withoutSchema: boolean }> {
    let withSchema = schemaSupported && request.responseFormat !== undefined;
    const rejected: unknown[] = [];
    for (let adaptation = 0; ; adaptation++) {
      const params = toChatCompletionParams(request, model, { withSchema, parameters: parameters.rulesFor(model) });
      try {
        const outcome = await send(request, params);
        const withoutSchema = !withSchema && schemaSupported && request.responseFormat !== undefined;
        return { ...outcome, attempts: rejected.length + outcome.attempts, errors: [...rejected, ...outcome.errors], withoutSchema };
      } catch (error) {
        if (!(error instanceof RetryError) || adaptation >= MAX_ADAPTATIONS) throw withEarlierErrors(error, rejected);
        const lesson = parameters.learn(model, error.lastError, new Set(Object.keys(params)));
        if (lesson.warning !== undefined) warn(lesson.warning);
        if (!lesson.retry) {
          // Many servers reject json_schema with a 4xx; fall back once without it.
          if (!(withSchema && error.lastError instanceof BadRequestError)) throw withEarlierErrors(error, rejected);
          withSchema = false;
        }
        rejected.push(...error.errors);
      }
    }
  }

  return {
    name: providerName(models),
    resolveModel: (request) => request.model ?? models[request.slot],
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const startedAt = performance.now();
      const model = request.model ?? models[request.slot];
      const outcome = await sendAdapting(request, model);
      if (outcome.withoutSchema) schemaSupported = false;
      const completion = outcome.result;
      const response: ChatResponse = {
        text: completion.text,
        usage: completion.usage ?? countedUsage(request, completion.reasoning === undefined ? completion.text : `${completion.reasoning}\n${completion.text}`),
        usageSource: completion.usage ? 'provider' : 'counted',
        latencyMs: performance.now() - startedAt,
        model: completion.model ?? model,
        attempts: outcome.attempts,
        cached: false,
      };
      const attemptErrors = outcome.errors.map(describeAttemptError);
      if (attemptErrors.length > 0) response.attemptErrors = attemptErrors;
      if (completion.finishReason !== undefined) response.finishReason = completion.finishReason;
      if (completion.reasoning !== undefined) response.reasoning = completion.reasoning;
      return response;
    },
  };
}

/** A RetryError that also carries the attempts rejected before it (parameter or schema fallbacks). */
function withEarlierErrors(error: unknown, earlier: readonly unknown[]): unknown {
  if (earlier.length === 0 || !(error instanceof RetryError)) return error;
  return new RetryError([...earlier, ...error.errors], error.reason);
}

/** OpenAI's own API, where every model takes `max_completion_tokens`. */
function isOpenAiApi(baseURL: string): boolean {
  return new URL(baseURL).hostname === 'api.openai.com';
}

/** One line naming a failed attempt's class and message, as stored with the call. */
function describeAttemptError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Usage for servers that report none, counted with `o200k_base` (an estimate for non-OpenAI models). */
function countedUsage(request: ChatRequest, text: string): Usage {
  const promptTokens = countMessageTokens(request.messages);
  const completionTokens = countTokens(text);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

/** `openai(model)` when one model fills every slot, else each slot named; the cache keys on it. */
function providerName(models: { orchestrator: string; worker: string; judge: string }): string {
  const { orchestrator, worker, judge } = models;
  if (orchestrator === worker && worker === judge) return `openai(${worker})`;
  return `openai(orchestrator=${orchestrator}, worker=${worker}, judge=${judge})`;
}
