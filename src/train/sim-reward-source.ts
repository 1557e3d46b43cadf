import { createBlockRegistry } from '../agents/index.js';
import { UserError } from '../core/errors.js';
import type { RewardModel } from '../core/reward-model.js';
import type { SimEnvironment } from '../sim/index.js';
import { exactMatchGrader } from '../tasks/index.js';
import { createExecutionReward, type ExecutionRewardOptions } from './execution-reward.js';
import { createHybridReward } from './hybrid-reward.js';
import { createJudgeReward } from './judge-reward.js';
import type { RewardSource } from './reward-source.js';
import { createRmReward } from './rm-reward.js';

export const REWARD_KINDS = ['rm', 'execution', 'judge', 'hybrid'] as const;
export type RewardKind = (typeof REWARD_KINDS)[number];

export interface SimRewardOptions {
  /** Required for `rm` and `hybrid`. */
  rewardModel?: RewardModel | undefined;
  /** `hybrid`: share of plans also executed. @default 0.1 */
  executedFraction?: number;
  /** Episodes or judge calls in flight. @default 16 */
  concurrency?: number;
  onEpisode?: ExecutionRewardOptions['onEpisode'];
}

/**
 * A reward source over a simulated environment: execution runs plans on the environment's
 * simulated workers with exact-match grading; the judge is the environment's `judge` slot.
 */
export function createSimRewardSource(kind: RewardKind, environment: SimEnvironment, options: SimRewardOptions = {}): RewardSource {
  const { concurrency = 16 } = options;
  const execution: ExecutionRewardOptions = {
    provider: environment.provider,
    blocks: createBlockRegistry(),
    grader: exactMatchGrader,
    retriever: environment.retriever,
    concurrency,
    ...(options.onEpisode !== undefined && { onEpisode: options.onEpisode }),
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
