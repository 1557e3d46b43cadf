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

/** What a cost-aware reward model expects of one plan before it runs. */
export interface PlanEstimate {
  /** Calibrated probability that the plan's answer is correct. */
  successProbability: number;
  /** Execution tokens the plan is predicted to spend (0 for a plan that cannot run). */
  executionTokens: number;
}

/**
 * A reward model that also predicts what a plan costs and how likely it is to succeed, so a
 * selector can trade accuracy against tokens (issue 22): a cost head trained on the episodes'
 * own token counts and a score calibrated into a probability on the train split.
 */
export interface CostAwareRewardModel extends RewardModel {
  /** False when the model has no cost head or calibration (then `estimate` throws). */
  readonly canEstimate: boolean;
  estimate(task: string, plans: readonly (string | Plan)[], options?: { signal?: AbortSignal }): Promise<PlanEstimate[]>;
}

/** Whether a reward model can estimate success probabilities and costs (`CostAwareRewardModel`). */
export function isCostAware(model: RewardModel): model is CostAwareRewardModel {
  const candidate = model as Partial<CostAwareRewardModel>;
  return typeof candidate.estimate === 'function' && candidate.canEstimate === true;
}

/**
 * A reward model with a template router (issue 21): besides scoring plans, it predicts how likely
 * each of a library's named template plans is to succeed on a task, from outcomes of the same
 * templates on training tasks of the same suite.
 */
export interface TemplateRoutingRewardModel extends RewardModel {
  /** Names of the templates it has learnt; empty when it has no router. */
  readonly routedTemplates: readonly string[];
  /** Suites it has seen template outcomes of; empty when it has no router. */
  readonly routedSuites: readonly string[];
  /** Per name, the predicted probability that the template succeeds on the task; undefined for a name it has not learnt, and for every name in a suite it has not seen. */
  routeTemplates(task: string, suite: string, names: readonly string[]): (number | undefined)[];
  /**
   * Per suite, the template among `names` that did best in the graded template episodes the router
   * was fitted on (the first of `names` on a tie): the fixed plan per family a user would choose
   * from the same training data. Undefined when the model keeps no such record.
   */
  bestTemplatesBySuite?(names: readonly string[]): Readonly<Record<string, string>> | undefined;
  /**
   * Per name, the execution tokens the router expects the template to spend on the task (from the
   * template episodes it was fitted on; undefined where it has none): the price a cost objective
   * puts on a template chosen by the router alone.
   */
  templateExecutionTokens?(task: string, suite: string, names: readonly string[]): (number | undefined)[];
  /**
   * What reading the sampled plans is expected to add, on a task of the suite at this price per
   * token, to the router's priced pick (success probability less price x tokens), when samples must
   * beat the router's pick by `margin` standard deviations of the heads' score difference.
   * Undefined where the model has no such estimate (or one made for another margin).
   */
  readingGain?(suite: string, pricePerToken: number, margin: number): number | undefined;
  /**
   * Whether a sampled plan may replace the router's pick on a task of the suite when samples must
   * beat it by `margin` standard deviations: only where such switches paid on the collection's
   * validation tasks. Undefined where the model keeps no such record (or one made for another
   * margin): samples may then replace it.
   */
  samplesMayReplace?(suite: string, margin: number): boolean | undefined;
}

/** Whether a reward model has a template router (`TemplateRoutingRewardModel`) with at least two templates. */
export function routesTemplates(model: RewardModel): model is TemplateRoutingRewardModel {
  const candidate = model as Partial<TemplateRoutingRewardModel>;
  return typeof candidate.routeTemplates === 'function' && Array.isArray(candidate.routedTemplates) && Array.isArray(candidate.routedSuites) && candidate.routedTemplates.length > 1;
}
