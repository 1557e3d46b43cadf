import { z } from 'zod';
import { UserError } from '../../core/errors.js';
import type { RewardModel } from '../../core/reward-model.js';
import { MalformedResponseError } from '../../llm/index.js';
import { createRemoteRewardModel, type RewardProtocol } from './remote-reward-model.js';
import type { RemoteRewardOptionsInput, RemoteRewardRuntime } from './remote-options.js';

export interface VllmClassifyOptions extends RemoteRewardOptionsInput {
  /** Model name the vLLM server serves (`vllm serve <model> --task classify`). */
  model: string;
  /**
   * Which output is the reward when the head has several. A Bradley-Terry reward model has one
   * (`num_labels=1`), which is used without asking. @default 0 for a one-output head
   */
  classIndex?: number;
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

/**
 * A reward model served by vLLM's `POST /classify` (a sequence-classification model, e.g. one
 * trained with TRL's RewardTrainer). Sends `{"model", "input": [prompt + canonical plan, ...],
 * "use_activation": false}`, so `probs` holds the raw logits, i.e. the Bradley-Terry rewards,
 * not their softmax (which would be a constant 1 for a one-output head).
 *
 * @example
 * const model = createVllmClassifyRewardModel({ url: 'http://127.0.0.1:8000/classify', model: 'orchrm-rm' });
 * const scores = await model.score(task, plans);
 */
export function createVllmClassifyRewardModel(options: VllmClassifyOptions, runtime: RemoteRewardRuntime = {}): RewardModel {
  const { model, classIndex, ...remote } = options;
  if (typeof model !== 'string' || model === '') throw new UserError('vllm-classify: name the served model with "model" (the name given to vllm serve)');
  const protocol: RewardProtocol = {
    replySchema: ClassifyReplySchema,
    buildBody: (texts) => ({ model, input: texts, use_activation: false }),
    readScores(reply, expected, url) {
      const { data } = reply as z.output<typeof ClassifyReplySchema>;
      if (data.length !== expected) throw new MalformedResponseError(`${url} returned ${data.length} results for ${expected} inputs`, { retryable: false });
      const scores = new Array<number>(expected);
      const seen = new Set<number>();
      for (const item of data) {
        if (item.index >= expected || seen.has(item.index)) {
          throw new MalformedResponseError(`${url} returned result index ${item.index} twice or out of range for ${expected} inputs`, { retryable: false });
        }
        seen.add(item.index);
        const outputs = item.num_classes ?? item.probs.length;
        const chosen = classIndex ?? (outputs === 1 ? 0 : undefined);
        if (chosen === undefined) {
          throw new MalformedResponseError(
            `${url}: model ${model} has ${outputs} outputs, not the single reward of a Bradley-Terry head; pass classIndex to pick one`,
            { retryable: false },
          );
        }
        const value = item.probs[chosen];
        if (value === undefined) throw new MalformedResponseError(`${url}: classIndex ${chosen} is out of range for ${item.probs.length} outputs`, { retryable: false });
        scores[item.index] = value;
      }
      return scores;
    },
  };
  return createRemoteRewardModel('vllm-classify', protocol, remote, runtime);
}
