import type { RewardModel } from '../core/index.js';
import { UserError } from '../core/index.js';
import type { Environment } from '../environment/index.js';
import { createExecutionReward, type ExecutionRewardOptions } from './execution-reward.js';
import { createHybridReward } from './hybrid-reward.js';
import { createJudgeReward } from './judge-reward.js';
import type { RewardSource } from './reward-source.js';
import { createRmReward } from './rm-reward.js';

export const REWARD_KINDS = ['rm', 'execution', 'judge', 'hybrid'] as const;
export type RewardKind = (typeof REWARD_KINDS)[number];

export interface RewardSourceOptions {
  /** Required for `rm` and `hybrid`. */
  rewardModel?: RewardModel | undefined;
  /** `hybrid`: share of plans also executed. @default 0.1 */
  executedFraction?: number;
  /** Episodes or judge calls in flight. @default 16 */
  concurrency?: number;
  events?: ExecutionRewardOptions['events'];
}

/**
 * A reward source of a kind in an environment: execution runs plans on the environment's
 * worker with its blocks, retriever and grader; the judge is the environment's `judge` slot.
 */
export function createRewardSource(kind: RewardKind, environment: Environment, options: RewardSourceOptions = {}): RewardSource {
  const { concurrency = 16 } = options;
  const execution: ExecutionRewardOptions = {
    environment,
    concurrency,
    ...(options.events !== undefined && { events: options.events }),
  };
  const requireModel = () => {
    if (!options.rewardModel) throw new UserError(`--reward ${kind} needs a reward model; pass --rm <model.safetensors>`);
    return options.rewardModel;
  };
  switch (kind) {
    case 'execution':
      return createExecutionReward(execution);
    case 'rm':
      return createRmReward(requireModel());
    case 'hybrid':
      return createHybridReward({ ...execution, rm: createRmReward(requireModel()), executedFraction: options.executedFraction ?? 0.1 });
    case 'judge':
      return createJudgeReward({ provider: environment.provider, concurrency });
  }
}
