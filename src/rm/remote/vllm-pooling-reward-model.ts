import { z } from 'zod';
import { chooseOutput, scoresByIndex } from './scores-by-index.js';
import { type RewardModel, UserError } from '../../core/index.js';
import { MalformedResponseError } from '../../llm/index.js';
import { chatTemplateOption, type ChatTemplateInput, type ChatTemplateMessage } from './chat-template.js';
import { ACTIVATION_PROBE_TEXT, checkActivationSwitch, checkVllmVersion } from './check-vllm-version.js';
import { createRemoteRewardModel, type RemoteRequest, type RewardProtocol } from './remote-reward-model.js';
import type { RemoteRewardOptionsInput, RemoteRewardRuntime } from './remote-options.js';
import { refuseActivatedOutputs } from './vllm-classify-reward-model.js';

export interface VllmPoolingOptions extends RemoteRewardOptionsInput {
  /** Model name the vLLM server serves (`vllm serve Qwen/Qwen2.5-Math-RM-72B --runner pooling`). */
  model: string;
  /**
   * How the conversation `[system?, user: task, assistant: plan]` becomes the model's input:
   * `server` sends the messages and vLLM applies the model's own chat template (as the model
   * was trained; the default); the path of the model's tokenizer_config.json (or its template,
   * read) renders it here with that template, in one request per batch; `none` sends prompt +
   * plan as plain text. @default 'server'
   */
  template?: 'server' | 'none' | ChatTemplateInput;
  /** A system message first, for reward models trained with one (Qwen2.5-Math-RM's card uses "Please reason step by step, and put your final answer within \\boxed{}."). @default none */
  systemPrompt?: string;
  /** The token whose output is the reward: -1 is the last token of the templated conversation, where outcome reward models read it. @default -1 */
  tokenIndex?: number;
  /** Which output of that token, when it has several. @default 0 for a one-output head */
  classIndex?: number;
  /** The pooling task to ask for (`token_classify`), for servers that serve several; vLLM 0.21 and later take it from `--pooler-config.task` instead. @default none */
  task?: string;
  /** Ask `GET /version` first and refuse servers older than 0.11.1 (they ignore `use_activation`). @default true */
  checkVersion?: boolean;
}

const PoolingReplySchema = z.object({
  data: z.array(
    z.object({
      index: z.number().int().nonnegative(),
      data: z.union([z.array(z.number()), z.array(z.array(z.number())), z.string()]),
    }),
  ),
});

/**
 * A token-level reward model served by vLLM's `POST /pooling` (e.g. `Qwen2ForRewardModel`,
 * Qwen2.5-Math-RM): the server returns one output per token of the templated conversation, and
 * the reward is the output at `tokenIndex` (the last token by default). Sends the conversation
 * `[system?, user: task, assistant: plan]` as `messages`, so vLLM applies the model's own chat
 * template (closing the assistant turn, no generation prompt), with `use_activation: false`
 * for raw rewards; or renders it here with `template`. Refuses vLLM older than 0.11.1, as the
 * classify client does.
 *
 * @example
 * const model = createVllmPoolingRewardModel({ url: 'http://127.0.0.1:8000/pooling', model: 'Qwen/Qwen2.5-Math-RM-72B' });
 */
export function createVllmPoolingRewardModel(options: VllmPoolingOptions, runtime: RemoteRewardRuntime = {}): RewardModel {
  const { model, template = 'server', systemPrompt, tokenIndex = -1, classIndex, task, checkVersion = true, ...remote } = options;
  if (typeof model !== 'string' || model === '') throw new UserError('vllm-pooling: name the served model with "model" (the name given to vllm serve)');
  const clientTemplate = template === 'server' || template === 'none' ? undefined : chatTemplateOption(template, 'vllm-pooling');
  if (!Number.isInteger(tokenIndex)) throw new UserError(`vllm-pooling: tokenIndex must be an integer (negative counts from the last token), got ${tokenIndex}`);
  const conversation = (prompt: string, plan: string): ChatTemplateMessage[] => [
    ...(systemPrompt === undefined ? [] : [{ role: 'system' as const, content: systemPrompt }]),
    { role: 'user', content: prompt },
    { role: 'assistant', content: plan },
  ];
  const common = { model, use_activation: false, ...(task !== undefined && { task }) };
  let versionKnown = false;
  const protocol: RewardProtocol = {
    replySchema: PoolingReplySchema,
    buildRequests(prompt, _task, planTexts): RemoteRequest[] {
      if (template === 'server') return planTexts.map((plan) => ({ body: { ...common, messages: conversation(prompt, plan), add_special_tokens: false }, count: 1 }));
      const texts = planTexts.map((plan) => (clientTemplate ? clientTemplate.render(conversation(prompt, plan)) : prompt + plan));
      // Rendered templates carry their own BOS; plain text gets the tokenizer's.
      return [{ body: { ...common, input: texts, add_special_tokens: template === 'none' }, count: texts.length }];
    },
    readScores(reply, expected, url) {
      const scores = readTokenRewards(reply as z.output<typeof PoolingReplySchema>, expected, url, model, tokenIndex, classIndex);
      if (!versionKnown) refuseActivatedOutputs(scores, url);
      return scores;
    },
    ...(checkVersion && {
      async check({ settings, fetch, apiKey }) {
        const probeOptions = { fetch, timeoutMs: Math.min(settings.timeoutMs, 10_000), ...(apiKey && { headers: { authorization: `Bearer ${apiKey}` } }) };
        const probe = await checkVllmVersion(settings.url, probeOptions);
        versionKnown = probe.version !== undefined;
        if (probe.version === undefined) await checkActivationSwitch(settings.url, { ...common, input: [ACTIVATION_PROBE_TEXT], add_special_tokens: true }, (reply) => readLastTokenOutput(reply, tokenIndex, classIndex), { ...probeOptions, unknownBecause: probe.reason });
      },
    }),
  };
  return createRemoteRewardModel('vllm-pooling', protocol, remote, runtime);
}

function readTokenRewards(reply: z.output<typeof PoolingReplySchema>, expected: number, url: string, model: string, tokenIndex: number, classIndex: number | undefined): number[] {
  return scoresByIndex(reply.data, expected, url, (item) => {
    if (typeof item.data === 'string') {
      throw new MalformedResponseError(`${url} returned base64 data; orchrm asks for floats (encoding_format "float"), is a proxy rewriting the request?`, { retryable: false });
    }
    const tokens = item.data;
    const token = tokens.at(tokenIndex);
    if (token === undefined) throw new MalformedResponseError(`${url}: tokenIndex ${tokenIndex} is out of range for ${tokens.length} token outputs`, { retryable: false });
    // One number per token (a one-label head flattened), or one list of outputs per token.
    const outputs = typeof token === 'number' ? [token] : token;
    return chooseOutput(outputs, classIndex, url, `model ${model} has ${outputs.length} outputs per token (a process reward model?), not one reward`);
  });
}

/** The output a `/pooling` reply holds for the first input at `tokenIndex` (`classIndex`, else the first), if the reply has that shape. */
function readLastTokenOutput(reply: unknown, tokenIndex: number, classIndex: number | undefined): number | undefined {
  const parsed = PoolingReplySchema.safeParse(reply);
  const tokens = parsed.success ? parsed.data.data[0]?.data : undefined;
  if (tokens === undefined || typeof tokens === 'string') return undefined;
  const token = tokens.at(tokenIndex);
  return typeof token === 'number' ? token : token?.[classIndex ?? 0];
}
