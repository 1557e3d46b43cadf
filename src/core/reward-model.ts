import type { Plan } from './plan.js';

/**
 * Scores plans for a task before anything executes: higher is better. Implemented by trained
 * Bradley-Terry models, remote reward servers and anything users plug in; used by Best-of-N,
 * GRPO and the reward server alike. Plans may be raw text (parsed and canonicalised by the
 * model; unparseable text is scored too) or already-parsed plans.
 */
export interface RewardModel {
  readonly name: string;
  score(task: string, plans: readonly (string | Plan)[], options?: { signal?: AbortSignal }): Promise<number[]>;
}
