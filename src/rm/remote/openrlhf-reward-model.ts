import { z } from 'zod';
import { type RewardModel, UserError } from '../../core/index.js';
import { MalformedResponseError } from '../../llm/index.js';
import { readPairExportLayout, type PairExportLayout } from '../../pairs/index.js';
import { chatTemplateOption, type ChatTemplateInput } from './chat-template.js';
import { createRemoteRewardModel, type RewardProtocol } from './remote-reward-model.js';
import type { RemoteRewardOptionsInput, RemoteRewardRuntime } from './remote-options.js';
import { assertScorable, scoringInput } from './scoring-input.js';

export interface OpenRlhfRewardOptions extends RemoteRewardOptionsInput {
  /**
   * The layout file of the export the served model was trained on (see
   * `createVllmClassifyRewardModel`): OpenRLHF's `serve_rm` scores each query as sent, so the
   * client lays it out as `train_rm` did (trailing newlines stripped, `" " + eos_token`).
   * @default none: prompt + plan, nothing appended (what orchrm's own server expects)
   */
  layout?: string | PairExportLayout;
  /** The trained model's `tokenizer.eos_token`, when the layout appends it and did not record it. */
  eosToken?: string;
  /** The trained model's tokenizer_config.json (or its template, read): chat layouts are rendered in the client, as queries are text. */
  chatTemplate?: ChatTemplateInput;
}

const RewardReplySchema = z.object({ rewards: z.array(z.number()) });

/**
 * A reward model behind an OpenRLHF-style remote reward server (`--reward.remote_url`, before
 * 0.10.2 `--remote_rm_url`): `POST /get_reward` with `{"query": [prompt + plan, ...],
 * "prompts": [prompt, ...], "labels": ["", ...]}`, answered by `{"rewards": [...]}` (extra fields
 * such as `scores` and `extra_logs` are ignored). Labels are empty: a reward model judges plans
 * before execution, with no gold answer. orchrm's own reward server speaks this protocol too;
 * OpenRLHF's `serve_rm` wants the training layout, given by `layout`.
 *
 * @example
 * const model = createOpenRlhfRewardModel({ url: 'http://127.0.0.1:5000/get_reward' });
 */
export function createOpenRlhfRewardModel(options: OpenRlhfRewardOptions, runtime: RemoteRewardRuntime = {}): RewardModel {
  const { layout: layoutOption, eosToken, chatTemplate: templateOption, ...remote } = options;
  const chatTemplate = templateOption === undefined ? undefined : chatTemplateOption(templateOption, 'openrlhf');
  const layout = typeof layoutOption === 'string' ? readPairExportLayout(layoutOption) : layoutOption;
  if (layout && layout.scoring === null) throw new UserError('openrlhf: the layout is of an orchrm-format export, which no engine trains on as is; export --format openrlhf');
  if (layout && remote.planText !== undefined && remote.planText !== layout.planText) {
    throw new UserError(`openrlhf: planText "${remote.planText}" contradicts the export layout, which has "${layout.planText}"; drop planText`);
  }
  const inputOptions = { ...(eosToken !== undefined && { eosToken }), ...(chatTemplate !== undefined && { chatTemplate }) };
  if (layout?.scoring) {
    if (layout.scoring.input === 'chat' && !chatTemplate) throw new UserError('openrlhf: the layout is a chat layout and queries are text; pass chatTemplate, the path of the trained model\'s tokenizer_config.json, to render it');
    assertScorable(layout.scoring, inputOptions);
  }
  /** The query for one plan, and its prompt: the part before the plan. */
  const query = (prompt: string, plan: string): { query: string; prompt: string } => {
    if (!layout?.scoring) return { query: prompt + plan, prompt };
    const input = scoringInput(layout.scoring, prompt, plan, inputOptions);
    const text = input.kind === 'text' ? input.text : prompt + plan;
    if (layout.scoring.input === 'text') return { query: text, prompt };
    // A rendered chat: the prompt is the template text before the plan (the template may trim it).
    const at = text.lastIndexOf(plan.trim());
    return { query: text, prompt: at < 0 ? '' : text.slice(0, at) };
  };
  const protocol: RewardProtocol = {
    replySchema: RewardReplySchema,
    buildRequests(prompt, _task, planTexts) {
      const items = planTexts.map((plan) => query(prompt, plan));
      return [{ body: { query: items.map((item) => item.query), prompts: items.map((item) => item.prompt), labels: items.map(() => '') }, count: items.length }];
    },
    readScores(reply, expected, url) {
      const { rewards } = reply as z.output<typeof RewardReplySchema>;
      if (rewards.length !== expected) throw new MalformedResponseError(`${url} returned ${rewards.length} rewards for ${expected} queries`, { retryable: false });
      return rewards;
    },
  };
  return createRemoteRewardModel('openrlhf', protocol, { ...remote, ...(layout && { planText: layout.planText }) }, runtime);
}
