import pLimit from 'p-limit';
import { deriveSeed, ModelBehaviorError } from '../core/index.js';
import type { ChatProvider } from '../llm/index.js';
import { canonicalPlanText } from '../rm/index.js';
import { buildPlanJudgeMessages, parseJudgeChoice } from '../select/index.js';
import type { PlanReward, RewardSource } from './reward-source.js';

export interface JudgeRewardOptions {
  /** Answers `judge`-slot requests (the simulated environment routes them to its plan judge). */
  provider: ChatProvider;
  /** Overrides the provider's judge model. */
  model?: string;
  /** Judge calls per group; a plan's reward is the share of calls that chose it. @default 1 */
  rounds?: number;
  /** @default 0 */
  temperature?: number;
  /** Judge calls in flight. @default 16 */
  concurrency?: number;
}

/**
 * Reward from a plan judge, before anything runs. The judge reads a group's G canonical plans
 * in the Best-of-N plan-judge prompt (`buildPlanJudgeMessages`, src/select) and picks one; a
 * plan's reward is the share of `rounds` calls (seeds derived from the group's first sample
 * seed) that picked it, so with one round the chosen plan gets 1 and the others 0: a listwise
 * judgement, which group normalisation turns into "better than its siblings". A reply without a
 * readable choice counts in `unreadable` and rewards no plan. The judge's tokens are
 * verification tokens, shared out over the group's plans.
 *
 * @example
 * const reward = createJudgeReward({ provider: environment.provider, rounds: 2 });
 */
export function createJudgeReward(options: JudgeRewardOptions): RewardSource & { readonly unreadable: number } {
  const { provider, rounds = 1, temperature = 0, concurrency = 16 } = options;
  if (!Number.isInteger(rounds) || rounds < 1) throw new RangeError(`rounds must be a positive integer, got ${rounds}`);
  const limit = pLimit(concurrency);
  let unreadable = 0;
  return {
    name: 'judge',
    get unreadable() {
      return unreadable;
    },
    reward: (groups, context) =>
      Promise.all(
        groups.map(async (group): Promise<PlanReward[]> => {
          const count = group.plans.length;
          const messages = buildPlanJudgeMessages(
            group.task.question,
            group.plans.map((plan) => canonicalPlanText(plan.text)),
          );
          const firstSeed = group.plans[0]?.seed ?? 0;
          const calls = await Promise.all(
            Array.from({ length: rounds }, (_, round) =>
              limit(async () => {
                const response = await provider.chat({
                  messages,
                  slot: 'judge',
                  ...(options.model !== undefined && { model: options.model }),
                  temperature,
                  seed: deriveSeed(firstSeed, `judge:${round}`),
                  sampleIndex: round,
                  ...(context.signal !== undefined && { signal: context.signal }),
                });
                return { choice: readChoice(response.text, count), tokens: response.usage.totalTokens };
              }),
            ),
          );
          const chosen = new Array<number>(count).fill(0);
          let tokens = 0;
          for (const call of calls) {
            tokens += call.tokens;
            if (call.choice === undefined) unreadable++;
            else chosen[call.choice] = (chosen[call.choice] as number) + 1;
          }
          return chosen.map((times, index) => ({
            reward: times / rounds,
            executionTokens: 0,
            // Shared out so the group's plans sum to the tokens spent.
            verificationTokens: Math.floor(tokens / count) + (index < tokens % count ? 1 : 0),
            executed: false,
          }));
        }),
      ),
  };
}

function readChoice(reply: string, count: number): number | undefined {
  try {
    return parseJudgeChoice(reply, count);
  } catch (error) {
    if (error instanceof ModelBehaviorError) return undefined;
    throw error;
  }
}
