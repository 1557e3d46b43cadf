import { deriveSeed, Rng, sigmoid } from '../core/index.js';
import { createPlanExecutor, type ExecutionRewardOptions } from './execution-reward.js';
import type { PlanReward, RewardSource } from './reward-source.js';

export interface HybridRewardOptions extends ExecutionRewardOptions {
  /** The reward-model source scoring every plan (`createRmReward`). */
  rm: RewardSource;
  /** p: each plan is also executed with this probability (a seeded draw per plan). */
  executedFraction: number;
  /** λ: weight of the execution term. @default 1 */
  executionWeight?: number;
}

/**
 * The reward model on every plan, with execution mixed in on a fraction p of them:
 *
 *   r_i = σ(s_i) + λ · (e_i − ē)   for executed plans,
 *   r_i = σ(s_i)                    for the others,
 *
 * where s_i is the reward model's score, e_i the execution reward (`w_exec * ok + w_correct *
 * correct`) and ē the mean execution reward over the step's executed plans. σ puts the
 * Bradley-Terry logit on the (0, 1) scale of the execution reward; centring on the step's ē
 * (not the group's) lets a single executed plan in a group still move its advantage, up when
 * it did better than executed plans typically do and down when worse, while unexecuted plans
 * are neither rewarded nor penalised for not running. Which plans run is a seeded draw per
 * plan (`deriveSeed(sample seed, 'hybrid')`), so p is the expected share. Tokens: the reward
 * model's verification for every plan plus execution for the executed ones.
 *
 * @example
 * const reward = createHybridReward({ environment, rm: createRmReward(await loadRewardModel('rm.safetensors')), executedFraction: 0.1 });
 */
export function createHybridReward(options: HybridRewardOptions): RewardSource {
  const { rm, executedFraction, executionWeight = 1 } = options;
  if (!(executedFraction >= 0 && executedFraction <= 1)) throw new RangeError(`executedFraction must be in [0, 1], got ${executedFraction}`);
  const executor = createPlanExecutor(options);
  return {
    name: 'hybrid',
    async reward(groups, context) {
      const scored = await rm.reward(groups, context);
      const items = groups.flatMap((group) =>
        group.plans.filter((plan) => new Rng(deriveSeed(plan.seed, 'hybrid')).chance(executedFraction)).map((plan) => ({ group, planIndex: group.plans.indexOf(plan) })),
      );
      const executed = await executor.execute(items, context);
      const meanExecution = executed.length === 0 ? 0 : executed.reduce((sum, result) => sum + result.reward, 0) / executed.length;
      const results: PlanReward[][] = scored.map((group) => group.map((result) => ({ ...result, reward: sigmoid(result.reward) })));
      items.forEach((item, index) => {
        const execution = executed[index] as PlanReward;
        const groupResults = results[groups.indexOf(item.group)] as PlanReward[];
        const base = groupResults[item.planIndex] as PlanReward;
        groupResults[item.planIndex] = {
          reward: base.reward + executionWeight * (execution.reward - meanExecution),
          executionTokens: execution.executionTokens,
          verificationTokens: base.verificationTokens + execution.verificationTokens,
          executed: true,
          ...(execution.correct !== undefined && { correct: execution.correct }),
        };
      });
      return results;
    },
  };
}
