import type { OrchestratorRef, Task } from '../core/index.js';

/** One sampled plan to reward. */
export interface RewardRequestPlan {
  text: string;
  /** The sample's seed; rewards that execute or call a model derive their seeds from it. */
  seed: number;
  /** Index of the plan in its group. */
  sampleIndex: number;
}

/** A task's group of sampled plans. */
export interface RewardGroup {
  task: Task;
  plans: readonly RewardRequestPlan[];
}

/** What a reward source says about one plan. */
export interface PlanReward {
  reward: number;
  /** Tokens spent executing the plan (0 when nothing ran). */
  executionTokens: number;
  /** Tokens a reward model or judge read and wrote to score it. */
  verificationTokens: number;
  /** Whether the plan was executed. */
  executed: boolean;
  /** The graded outcome, when it was executed and graded. */
  correct?: boolean;
}

export interface RewardContext {
  /** The checkpoint that wrote the plans (recorded on executed episodes). */
  orchestrator: OrchestratorRef;
  /** The GRPO step (0-based), for seeds and logs. */
  step: number;
  signal?: AbortSignal;
}

/**
 * Turns each sampled plan into a scalar reward, with the tokens it cost. Gets a whole step's
 * groups at once so a source can batch (a reward model scores a group in one call) or share a
 * baseline across groups (`hybrid`). Returns one `PlanReward` per plan, in the groups' order.
 */
export interface RewardSource {
  /** `rm`, `execution`, `judge`, `hybrid`, or a user's own. */
  readonly name: string;
  reward(groups: readonly RewardGroup[], context: RewardContext): Promise<PlanReward[][]>;
}
