import { UserError } from '../../core/index.js';
import type { ChatProvider, ChatRequest, ChatResponse } from '../../llm/index.js';
import { readBlockPrompt } from '../../prompts/index.js';
import type { SimFamily } from '../families/family.js';
import type { Scenario } from '../scenario/scenario-schema.js';
import { countMessageTokensFast, countTokensFast } from './count-tokens-fast.js';
import { respondToPrompt } from './respond-to-prompt.js';

/** Temperature of a request that sets none (a common server default for chat models). */
export const DEFAULT_TEMPERATURE = 0.7;

export interface SimWorkerOptions {
  /** Competence knobs (`worker`), hidden reasoning cost (`tokens`) and the seed of the shared latents. */
  scenario: Scenario;
  /** Asked in order to read each prompt; the first that recognises it answers. */
  families: readonly SimFamily[];
}

/**
 * The simulated worker model: a ChatProvider that reads block prompts (`readBlockPrompt`), has
 * the families read them, draws each step's success from the scenario's competence model and
 * replies as a model would (short reasoning, then `<answer>`, `<verdict>` or `<search>`).
 *
 * A pure function of the request: messages, model, temperature and seed. `sampleIndex` is
 * never read (it does not exist over HTTP); the executor gives every call a distinct seed. A
 * request without a seed uses seed 0. An unknown model name answers with the default model's
 * skill and reports the default model's name. `maxTokens` and `stop` are ignored: replies are
 * a few lines. Usage is reported as the server's (`provider`): prompt tokens by a fast
 * approximate o200k count of the prompt, completion tokens by the same count of the reply plus
 * `tokens.reasoningTokensPerStep` per reasoning step worked (hidden reasoning, as reasoning
 * models bill it).
 *
 * @example
 * const worker = createSimWorker({ scenario, families: [arith, multihop] });
 * const response = await worker.chat({ messages: answerPrompt({ task, input: task.question }), slot: 'worker', seed: 7 });
 */
export function createSimWorker(options: SimWorkerOptions): ChatProvider {
  const { scenario, families } = options;
  const { tiers, defaultModel } = scenario.worker;
  if (tiers[defaultModel] === undefined) {
    throw new UserError(
      `scenario "${scenario.name}": worker.defaultModel "${defaultModel}" is not one of worker.tiers (${Object.keys(tiers).join(', ') || 'none'}); add it to worker.tiers or set defaultModel to one of them`,
    );
  }
  return {
    name: 'sim-worker',
    async chat(request: ChatRequest): Promise<ChatResponse> {
      request.signal?.throwIfAborted();
      const model = request.model !== undefined && tiers[request.model] !== undefined ? request.model : defaultModel;
      const skill = tiers[model]?.skill ?? 0;
      const reply = respondToPrompt(readBlockPrompt(request.messages), {
        scenario,
        families,
        skill,
        temperature: request.temperature ?? DEFAULT_TEMPERATURE,
        seed: request.seed ?? 0,
      });
      const promptTokens = countMessageTokensFast(request.messages);
      const completionTokens = countTokensFast(reply.text) + scenario.tokens.reasoningTokensPerStep * reply.stepsWorked;
      return {
        text: reply.text,
        usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
        usageSource: 'provider',
        latencyMs: 0,
        model,
        attempts: 1,
        cached: false,
        finishReason: 'stop',
      };
    },
  };
}
