import pLimit from 'p-limit';
import type { Episode, EventSink } from '../core/index.js';
import type { Environment } from '../environment/index.js';
import { runEpisode } from '../exec/index.js';
import type { RewardContext, RewardGroup, PlanReward, RewardSource } from './reward-source.js';

export interface ExecutionRewardOptions {
  /**
   * Where the plans run: its provider answers the sub-agents' calls, its blocks run the plans,
   * its retriever answers search blocks and its grader grades the answers.
   */
  environment: Environment;
  /** w_exec: reward for a plan that executed without error (MAS-Orchestra). @default 0.1 */
  executedWeight?: number;
  /** w_correct: reward for a correct final answer. @default 0.9 */
  correctWeight?: number;
  /** Episodes in flight. @default 16 */
  concurrency?: number;
  /** A `reward-episode-end` event with every executed episode (e.g. to store it for pair mining). */
  events?: EventSink<RewardEpisodeEndEvent>;
}

/** Sent after each plan the execution reward executed. */
export interface RewardEpisodeEndEvent {
  type: 'reward-episode-end';
  episode: Episode;
}

/** Executes plans and rewards `w_exec * ok + w_correct * correct`; shared by `execution` and `hybrid`. */
export interface PlanExecutor {
  execute(items: readonly { group: RewardGroup; planIndex: number }[], context: RewardContext): Promise<PlanReward[]>;
}

/** Builds the executor behind `createExecutionReward` (also used by `hybrid` for its executed share). */
export function createPlanExecutor(options: ExecutionRewardOptions): PlanExecutor {
  const { environment, executedWeight = 0.1, correctWeight = 0.9, concurrency = 16 } = options;
  const limit = pLimit(concurrency);
  return {
    execute: (items, context) =>
      Promise.all(
        items.map(({ group, planIndex }) =>
          limit(async (): Promise<PlanReward> => {
            const plan = group.plans[planIndex] as RewardGroup['plans'][number];
            const episode = await runEpisode({
              task: group.task,
              planText: plan.text,
              blocks: environment.blocks,
              provider: environment.provider,
              retriever: environment.retriever,
              grader: environment.grader,
              seed: plan.seed,
              sampleIndex: plan.sampleIndex,
              orchestrator: context.orchestrator,
              ...(context.signal !== undefined && { signal: context.signal }),
            });
            options.events?.({ type: 'reward-episode-end', episode });
            const correct = episode.grade?.correct === true;
            return {
              reward: executedWeight * (episode.status === 'ok' ? 1 : 0) + correctWeight * (correct ? 1 : 0),
              executionTokens: episode.usage.execution.totalTokens,
              verificationTokens: episode.usage.verification.totalTokens,
              executed: true,
              ...(episode.grade !== undefined && { correct }),
            };
          }),
        ),
      ),
  };
}

/**
 * Reward by executing every sampled plan, as MAS-Orchestra trains: `executedWeight` if the
 * episode finished ok plus `correctWeight` if its answer is graded correct (0.1 / 0.9 by
 * default). Execution tokens are the sub-agents'; a grader that calls a model adds verification.
 *
 * @example
 * const reward = createExecutionReward({ environment });
 * const correctOnly = createExecutionReward({ environment, executedWeight: 0, correctWeight: 1 });
 */
export function createExecutionReward(options: ExecutionRewardOptions): RewardSource {
  const executor = createPlanExecutor(options);
  return {
    name: 'execution',
    async reward(groups, context) {
      const items = groups.flatMap((group) => group.plans.map((_, planIndex) => ({ group, planIndex })));
      const flat = await executor.execute(items, context);
      let next = 0;
      return groups.map((group) => group.plans.map(() => flat[next++] as PlanReward));
    },
  };
}
