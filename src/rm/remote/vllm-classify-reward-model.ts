import { z } from 'zod';
import { chooseOutput, scoresByIndex } from './scores-by-index.js';
import { type RewardModel, UserError } from '../../core/index.js';
import { MalformedResponseError } from '../../llm/index.js';
import { readPairExportLayout, type PairExportLayout, type ScoringLayout } from '../../pairs/index.js';
import { chatTemplateOption, type ChatTemplateInput } from './chat-template.js';
import { ACTIVATION_PROBE_TEXT, checkActivationSwitch, checkVllmVersion } from './check-vllm-version.js';
import { createRemoteRewardModel, type RemoteRequest, type RewardProtocol } from './remote-reward-model.js';
import type { RemoteRewardOptionsInput, RemoteRewardRuntime } from './remote-options.js';
import { assertScorable, scoringInput } from './scoring-input.js';

export interface VllmClassifyOptions extends RemoteRewardOptionsInput {
  /** Model name the vLLM server serves (`vllm serve <model> --runner pooling`). */
  model: string;
  /**
   * Which output is the reward when the head has several. A Bradley-Terry reward model has one
   * (`num_labels=1`), which is used without asking. @default 0 for a one-output head
   */
  classIndex?: number;
  /**
   * The layout file `orchrm pairs export` wrote next to the training data (`train.jsonl.orchrm-layout`),
   * or its parsed content: plans are then sent in exactly the layout the model was trained on
   * (plan text, EOS token, chat template). @default none: prompt + plan text, nothing appended
   */
  layout?: string | PairExportLayout;
  /** The trained model's `tokenizer.eos_token`, when the layout appends it and did not record it. */
  eosToken?: string;
  /**
   * The trained model's tokenizer_config.json (or chat_template.jinja), or its template already
   * read: chat layouts are then rendered in the client with the model's own template, for layouts
   * a server-side template cannot reproduce (OpenRLHF's, which strip and append to the rendered text).
   */
  chatTemplate?: ChatTemplateInput;
  /** Ask `GET /version` first and refuse servers older than 0.11.1 (they ignore `use_activation`). @default true */
  checkVersion?: boolean;
}

const ClassifyReplySchema = z.object({
  data: z.array(
    z.object({
      index: z.number().int().nonnegative(),
      probs: z.array(z.number()).min(1),
      num_classes: z.number().int().positive().optional(),
    }),
  ),
});

/** What a prompt + plan becomes without a layout file: the text as is, the tokenizer's special tokens added. */
const PLAIN_LAYOUT: ScoringLayout = { input: 'text', stripTrailingNewlines: false, eos: 'none', eosToken: null, addSpecialTokens: true };

/**
 * A reward model served by vLLM's `POST /classify` (a sequence-classification model, e.g. one
 * trained with TRL's RewardTrainer or OpenRLHF's train_rm on `orchrm pairs export`). Sends
 * `{"model", "input": [...], "use_activation": false}` (or `"messages"` for a chat layout), so
 * `probs` holds the raw logits, i.e. the Bradley-Terry rewards.
 *
 * - With `layout`, each (task, plan) is laid out as the export's engine trained on it: plan
 *   text raw or canonical, the EOS token appended where TRL and OpenRLHF append it (the reward
 *   is read at the last token), the chat template for messages exports.
 * - Servers older than vLLM 0.11.1 ignore `use_activation`: they are refused after a
 *   `GET /version`, and a reply of all 1.0 from a one-output head (a softmax) is refused too.
 *
 * @example
 * const model = createVllmClassifyRewardModel({ url: 'http://127.0.0.1:8000/classify', model: 'orchrm-rm', layout: 'train.jsonl.orchrm-layout' });
 * const scores = await model.score(task, plans);
 */
export function createVllmClassifyRewardModel(options: VllmClassifyOptions, runtime: RemoteRewardRuntime = {}): RewardModel {
  const { model, classIndex, layout: layoutOption, eosToken, chatTemplate: templateOption, checkVersion = true, ...remote } = options;
  const chatTemplate = templateOption === undefined ? undefined : chatTemplateOption(templateOption, 'vllm-classify');
  if (typeof model !== 'string' || model === '') throw new UserError('vllm-classify: name the served model with "model" (the name given to vllm serve)');
  const layout = typeof layoutOption === 'string' ? readPairExportLayout(layoutOption) : layoutOption;
  if (layout && remote.planText !== undefined && remote.planText !== layout.planText) {
    throw new UserError(`vllm-classify: planText "${remote.planText}" contradicts the export layout, which has "${layout.planText}"; drop planText`);
  }
  if (layout && layout.scoring === null) throw new UserError('vllm-classify: the layout is of an orchrm-format export, which no engine trains on as is; export --format trl or openrlhf');
  const scoring = layout?.scoring ?? PLAIN_LAYOUT;
  const inputOptions = { ...(eosToken !== undefined && { eosToken }), ...(chatTemplate !== undefined && { chatTemplate }) };
  assertScorable(scoring, inputOptions);
  let versionKnown = false;
  const protocol: RewardProtocol = {
    replySchema: ClassifyReplySchema,
    buildRequests(prompt, _task, planTexts): RemoteRequest[] {
      const inputs = planTexts.map((plan) => scoringInput(scoring, prompt, plan, inputOptions));
      const messages = inputs.flatMap((input) => (input.kind === 'messages' ? [input.messages] : []));
      // A chat request carries one conversation; text requests carry a batch.
      if (messages.length > 0) return messages.map((conversation) => ({ body: { model, messages: conversation, use_activation: false, add_special_tokens: false }, count: 1 }));
      const texts = inputs.flatMap((input) => (input.kind === 'text' ? [input.text] : []));
      return [{ body: { model, input: texts, use_activation: false, add_special_tokens: scoring.addSpecialTokens }, count: texts.length }];
    },
    readScores(reply, expected, url) {
      const scores = readClassifyScores(reply as z.output<typeof ClassifyReplySchema>, expected, url, model, classIndex);
      if (!versionKnown) refuseActivatedOutputs(scores, url);
      return scores;
    },
    ...(checkVersion && {
      async check({ settings, fetch, apiKey }) {
        const probeOptions = { fetch, timeoutMs: Math.min(settings.timeoutMs, 10_000), ...(apiKey && { headers: { authorization: `Bearer ${apiKey}` } }) };
        const probe = await checkVllmVersion(settings.url, probeOptions);
        versionKnown = probe.version !== undefined;
        if (probe.version === undefined) await checkActivationSwitch(settings.url, { model, input: [ACTIVATION_PROBE_TEXT] }, readFirstClassifyOutput, { ...probeOptions, unknownBecause: probe.reason });
      },
    }),
  };
  return createRemoteRewardModel('vllm-classify', protocol, { ...remote, ...(layout && { planText: layout.planText }) }, runtime);
}

function readClassifyScores(reply: z.output<typeof ClassifyReplySchema>, expected: number, url: string, model: string, classIndex: number | undefined): number[] {
  return scoresByIndex(reply.data, expected, url, (item) => {
    const outputs = item.num_classes ?? item.probs.length;
    const chosen = classIndex ?? (outputs === 1 ? 0 : undefined);
    if (chosen === undefined) {
      throw new MalformedResponseError(`${url}: model ${model} has ${outputs} outputs, not the single reward of a Bradley-Terry head; pass classIndex to pick one`, { retryable: false });
    }
    return chooseOutput(item.probs, chosen, url, `model ${model} has ${outputs} outputs`);
  });
}

/**
 * A server of unknown version that answers 1.0 for every input applied a softmax over one
 * output: it ignored `use_activation` (vLLM before 0.11.1). Raw rewards are never all exactly 1.
 */
export function refuseActivatedOutputs(scores: readonly number[], url: string): void {
  if (scores.length > 0 && scores.every((score) => score === 1)) {
    throw new UserError(
      `${url} returned exactly 1.0 for every input: a softmax over a one-output head, so the server ignored "use_activation": false (vLLM before 0.11.1 does). ` +
        'Every plan would tie; upgrade vLLM to 0.11.1 or later',
    );
  }
}

/** The first output of the first item of a `/classify` reply, if the reply has that shape. */
function readFirstClassifyOutput(reply: unknown): number | undefined {
  const parsed = ClassifyReplySchema.safeParse(reply);
  return parsed.success ? parsed.data.data[0]?.probs[0] : undefined;
}
