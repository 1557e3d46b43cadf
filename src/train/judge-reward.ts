import pLimit from 'p-limit';
import type { ChatMessage } from '../core/llm-call.js';
import type { ChatProvider } from '../llm/chat-provider.js';
import { canonicalPlanText } from '../rm/remote/index.js';
import type { PlanReward, RewardSource } from './reward-source.js';

/** Highest score the judge is asked for; rewards are score / JUDGE_SCALE, in [0, 1]. */
export const JUDGE_SCALE = 10;

const JUDGE_SYSTEM =
  'You review plans for multi-agent systems before they run. Judge how likely a plan is to reach the correct final answer: whether its sub-tasks are right, whether the agents suit them, and whether the graph wires the right results together.';

/**
 * The plan-scoring prompt: the task, the canonical plan, and a request for an integer score
 * from 0 to `JUDGE_SCALE` in `<score>` tags. Minimal on purpose (no trajectory, nothing executed).
 *
 * @example
 * judgePlanMessages('What is 2+2?', '<dom>low</dom>\n<answer>4</answer>')
 */
export function judgePlanMessages(task: string, canonicalPlan: string): ChatMessage[] {
  return [
    { role: 'system', content: JUDGE_SYSTEM },
    {
      role: 'user',
      content: `Task:\n${task.trim()}\n\nPlan:\n${canonicalPlan}\n\nInstructions:\nEstimate the chance that executing this plan gives the correct answer to the task. Reason briefly, then end with an integer from 0 (certainly wrong) to ${JUDGE_SCALE} (certainly right) inside <score></score> tags.`,
    },
  ];
}

const SCORE = /<score>\s*(-?\d+(?:\.\d+)?)\s*<\/score>/gi;

/** The last `<score>` in a judge's reply, clamped to [0, JUDGE_SCALE]; undefined when there is none. */
export function parseJudgeScore(text: string): number | undefined {
  const last = Array.from(text.matchAll(SCORE)).at(-1)?.[1];
  if (last === undefined) return undefined;
  return Math.min(Math.max(Number(last), 0), JUDGE_SCALE);
}

export interface JudgeRewardOptions {
  /** Answers `judge`-slot requests. */
  provider: ChatProvider;
  /** Overrides the provider's judge model. */
  model?: string;
  /** @default 0 */
  temperature?: number;
  /** Judge calls in flight. @default 16 */
  concurrency?: number;
  /** Reward of a plan whose judgement has no readable score (counted in `unreadable`). @default 0 */
  unreadableReward?: number;
}

/**
 * Reward = a judge model's score of each plan, read before anything runs, scaled to [0, 1]
 * (one call per plan, slot `judge`, seeded by the sample's seed). The judge's prompt and reply
 * tokens are verification tokens. `unreadable` counts replies without a score.
 *
 * @example
 * const reward = createJudgeReward({ provider });
 */
export function createJudgeReward(options: JudgeRewardOptions): RewardSource & { readonly unreadable: number } {
  const { provider, temperature = 0, concurrency = 16, unreadableReward = 0 } = options;
  const limit = pLimit(concurrency);
  let unreadable = 0;
  return {
    name: 'judge',
    get unreadable() {
      return unreadable;
    },
    reward: (groups, context) =>
      Promise.all(
        groups.map((group) =>
          Promise.all(
            group.plans.map((plan) =>
              limit(async (): Promise<PlanReward> => {
                const response = await provider.chat({
                  messages: judgePlanMessages(group.task.question, canonicalPlanText(plan.text)),
                  slot: 'judge',
                  ...(options.model !== undefined && { model: options.model }),
                  temperature,
                  seed: plan.seed,
                  sampleIndex: plan.sampleIndex,
                  ...(context.signal !== undefined && { signal: context.signal }),
                });
                const score = parseJudgeScore(response.text);
                if (score === undefined) unreadable++;
                return {
                  reward: score === undefined ? unreadableReward : score / JUDGE_SCALE,
                  executionTokens: 0,
                  verificationTokens: response.usage.totalTokens,
                  executed: false,
                };
              }),
            ),
          ),
        ),
      ),
  };
}
