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

/**
 * A reward model that can say how sure it is: besides its score, the scores of a small ensemble
 * of heads trained on bootstrap resamples of its training tasks. Where the heads disagree about
 * two plans, the model has seen too little to tell them apart (issue 21).
 */
export interface UncertainRewardModel extends RewardModel {
  /** Heads in the ensemble; 0 when the model has none (then `scoreMembers` gives empty arrays). */
  readonly ensembleSize: number;
  /** Per plan, the score of each ensemble head, in head order. */
  scoreMembers(task: string, plans: readonly (string | Plan)[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}

/** Whether a reward model has an ensemble of heads to measure its uncertainty with. */
export function hasEnsemble(model: RewardModel): model is UncertainRewardModel {
  const candidate = model as Partial<UncertainRewardModel>;
  return typeof candidate.scoreMembers === 'function' && typeof candidate.ensembleSize === 'number' && candidate.ensembleSize > 1;
}
