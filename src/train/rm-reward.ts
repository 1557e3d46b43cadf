import { ModelBehaviorError, type RewardModel } from '../core/index.js';
import { countTokens } from '../llm/index.js';
import { canonicalPlanText, defaultRewardPrompt } from '../rm/index.js';
import type { RewardSource } from './reward-source.js';

/**
 * Reward = the reward model's score of the plan text; nothing is executed. Verification tokens
 * are the o200k tokens of the text a reward model reads for each plan: the reward prompt with
 * the task (`defaultRewardPrompt`) and the canonical plan (`canonicalPlanText`), one read per plan.
 *
 * @example
 * const reward = createRmReward(await loadRewardModel('rm.safetensors'));
 */
export function createRmReward(model: RewardModel): RewardSource {
  const taskTokens = new Map<string, number>();
  return {
    name: 'rm',
    async reward(groups, context) {
      const results = [];
      for (const group of groups) {
        const question = group.task.question;
        const texts = group.plans.map((plan) => plan.text);
        const scores = await model.score(question, texts, context.signal === undefined ? undefined : { signal: context.signal });
        if (!taskTokens.has(question)) {
          if (taskTokens.size >= 4096) taskTokens.clear();
          taskTokens.set(question, countTokens(defaultRewardPrompt(question)));
        }
        const prompt = taskTokens.get(question) as number;
        results.push(
          texts.map((text, index) => ({
            reward: scoreAt(scores, index, model.name),
            executionTokens: 0,
            verificationTokens: prompt + countTokens(canonicalPlanText(text)),
            executed: false,
          })),
        );
      }
      return results;
    },
  };
}

function scoreAt(scores: readonly number[], index: number, modelName: string): number {
  const score = scores[index];
  if (score === undefined || !Number.isFinite(score)) {
    throw new ModelBehaviorError(`reward model ${modelName} returned ${scores.length} scores with no finite score at ${index}; it must return one finite score per plan`);
  }
  return score;
}
