import { SystemError, type Usage } from '../core/index.js';
import type { ChatProvider, ChatRequest, ChatResponse } from '../llm/index.js';

/** One scripted reply: fixed text, text computed from the request, or an error to throw. */
export type ScriptedStep = string | ((request: ChatRequest) => string | Promise<string>) | Error;

/** A provider that also keeps every request it received, in call order. */
export interface RecordingProvider extends ChatProvider {
  readonly calls: readonly ChatRequest[];
}

export interface ScriptedProvider extends RecordingProvider {
  /** Steps not yet consumed. */
  readonly remaining: number;
  /** Throws when steps remain unused or an unexpected extra call was made (even if it was caught). */
  assertAllUsed(): void;
}

/**
 * A ChatProvider that answers from a script, in order, for tests (after openai-agents-js
 * `scriptedModel`). A call beyond the script throws a SystemError naming the request, and is
 * remembered so `assertAllUsed()` still fails if code under test swallowed that error.
 *
 * Usage is counted, not tokenised: prompt tokens are the whitespace-separated words of all
 * message contents, completion tokens the words of the reply (`usageSource: 'counted'`).
 * Latency is 0 and `model` is the request's model or `scripted`.
 *
 * @example
 * const provider = createScriptedProvider(['<answer>4</answer>', new Error('server down')]);
 * await provider.chat({ slot: 'worker', messages: [{ role: 'user', content: '2+2?' }] }); // '<answer>4</answer>'
 * // ... the second call throws 'server down'
 * provider.assertAllUsed();
 */
export function createScriptedProvider(steps: readonly ScriptedStep[], options: { name?: string } = {}): ScriptedProvider {
  const calls: ChatRequest[] = [];
  const unexpected: string[] = [];
  let next = 0;
  return {
    name: options.name ?? 'scripted',
    calls,
    get remaining() {
      return steps.length - next;
    },
    async chat(request) {
      calls.push(request);
      request.signal?.throwIfAborted();
      const step = steps[next];
      if (step === undefined) {
        const description = `call ${calls.length} (${describe(request)})`;
        unexpected.push(description);
        throw new SystemError(`scripted provider received an unexpected ${description}; the script has only ${steps.length} step(s)`);
      }
      next++;
      if (step instanceof Error) throw step;
      const text = typeof step === 'string' ? step : await step(request);
      return countedResponse(request, text, 'scripted');
    },
    assertAllUsed() {
      if (unexpected.length > 0) {
        throw new SystemError(`scripted provider received ${unexpected.length} unexpected call(s): ${unexpected.join('; ')}`);
      }
      if (next < steps.length) {
        throw new SystemError(`scripted provider has ${steps.length - next} unused step(s) of ${steps.length}; the code made fewer calls than scripted`);
      }
    },
  };
}

/**
 * A ChatProvider whose replies are computed from each request, for tests where the call order
 * is not fixed (concurrent branches) or the reply depends on the prompt. Usage is counted as in
 * {@link createScriptedProvider}.
 *
 * @example
 * const provider = createFunctionProvider((request) => `<answer>${request.messages.length}</answer>`);
 */
export function createFunctionProvider(
  reply: (request: ChatRequest) => string | Promise<string>,
  options: { name?: string } = {},
): RecordingProvider {
  const calls: ChatRequest[] = [];
  return {
    name: options.name ?? 'function',
    calls,
    async chat(request) {
      calls.push(request);
      request.signal?.throwIfAborted();
      return countedResponse(request, await reply(request), 'function');
    },
  };
}

function countedResponse(request: ChatRequest, text: string, fallbackModel: string): ChatResponse {
  const promptTokens = request.messages.reduce((sum, message) => sum + countWords(message.content), 0);
  const completionTokens = countWords(text);
  const usage: Usage = { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
  return {
    text,
    usage,
    usageSource: 'counted',
    latencyMs: 0,
    model: request.model ?? fallbackModel,
    attempts: 1,
    cached: false,
    finishReason: 'stop',
  };
}

function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

function describe(request: ChatRequest): string {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  const excerpt = (lastUser?.content ?? '').replace(/\s+/g, ' ').slice(0, 120);
  return `slot ${request.slot}, last user message "${excerpt}"`;
}
