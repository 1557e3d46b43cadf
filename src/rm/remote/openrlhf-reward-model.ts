import { z } from 'zod';
import type { RewardModel } from '../../core/reward-model.js';
import { MalformedResponseError } from '../../llm/index.js';
import { createRemoteRewardModel, type RewardProtocol } from './remote-reward-model.js';
import type { RemoteRewardOptionsInput, RemoteRewardRuntime } from './remote-options.js';

const RewardReplySchema = z.object({ rewards: z.array(z.number()) });

/**
 * A reward model behind an OpenRLHF-style remote reward server (`--reward.remote_url`, before
 * 0.10.2 `--remote_rm_url`): `POST /get_reward` with `{"query": [prompt + plan, ...],
 * "prompts": [prompt, ...], "labels": ["", ...]}`, answered by `{"rewards": [...]}` (extra fields
 * such as `scores` and `extra_logs` are ignored). Labels are empty: a reward model judges plans
 * before execution, with no gold answer. orchrm's own reward server speaks this protocol too.
 *
 * @example
 * const model = createOpenRlhfRewardModel({ url: 'http://127.0.0.1:5000/get_reward' });
 */
export function createOpenRlhfRewardModel(options: RemoteRewardOptionsInput, runtime: RemoteRewardRuntime = {}): RewardModel {
  const protocol: RewardProtocol = {
    replySchema: RewardReplySchema,
    buildRequests: (prompt, _task, planTexts) => [
      { body: { query: planTexts.map((plan) => prompt + plan), prompts: planTexts.map(() => prompt), labels: planTexts.map(() => '') }, count: planTexts.length },
    ],
    readScores(reply, expected, url) {
      const { rewards } = reply as z.output<typeof RewardReplySchema>;
      if (rewards.length !== expected) throw new MalformedResponseError(`${url} returned ${rewards.length} rewards for ${expected} queries`, { retryable: false });
      return rewards;
    },
  };
  return createRemoteRewardModel('openrlhf', protocol, options, runtime);
}
