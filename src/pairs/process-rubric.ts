import { z } from 'zod';

const weight = (defaultWeight: number, description: string) => z.number().nonnegative().default(defaultWeight).describe(description);

/**
 * Weight of each term of the process score. Every term is a value in [0, 1] (1 = better
 * artifacts) and only counts when it applies to the episode; the score is the weighted mean of
 * the terms that apply, so a plan is never rewarded merely for using more block kinds.
 * A weight of 0 switches a term off. docs/pairs.md explains each term.
 */
export const ProcessWeightsSchema = z.strictObject({
  /** 1 when the plan text parsed and validated, else 0. Applies always. @default 3 */
  planValid: weight(3, 'plan parsed and validated'),
  /** Share of plan nodes that finished ok (failed, timed-out, over-budget and skipped nodes count against). @default 2 */
  nodeSuccess: weight(2, 'share of nodes that finished ok'),
  /** 0 when the episode or any node ran out of time or token budget, else 1. Applies to valid plans. @default 1 */
  withinBudget: weight(1, 'no timeout or budget overrun'),
  /**
   * Agreement inside blocks, averaged over the nodes that have it: self-consistency vote share;
   * debate 1 when converged, else the share of last-round answers equal to the final answer;
   * reflexion 1 when the critic accepted, 0.5 when its last verdict was unclear, else 0.
   * @default 1.5
   */
  blockAgreement: weight(1.5, 'vote share, debate convergence, reflexion critic verdicts'),
  /** Plurality share of the answers of independent nodes given the same sub-question (same resolved input). @default 1 */
  crossNodeAgreement: weight(1, 'agreement between nodes on the same sub-question'),
  /** Share of search steps that returned documents without an error. @default 1 */
  searchFeedback: weight(1, 'search steps that found documents'),
  /**
   * Share of the answers feeding the answer node that equal the final answer; applies when at
   * least two upstream answers feed it (a single upstream step may legitimately answer a different sub-question).
   * @default 1
   */
  finalConsistency: weight(1, 'final answer agrees with the answers that feed it'),
});
export type ProcessWeights = z.infer<typeof ProcessWeightsSchema>;
export type ProcessTerm = keyof ProcessWeights;
export const PROCESS_TERMS = Object.keys(ProcessWeightsSchema.shape) as ProcessTerm[];

/**
 * The process miner's configuration: rubric weights, the score gap that makes a pair, and an
 * optional margin. Recorded with every mined dataset.
 * @example ProcessRubricSchema.parse({ threshold: 0.2, weights: { searchFeedback: 0 } })
 */
export const ProcessRubricSchema = z.strictObject({
  weights: ProcessWeightsSchema.prefault({}),
  /** Two episodes of a task make a pair when their scores differ by at least this much. @default 0.15 */
  threshold: z.number().gt(0).max(1).default(0.15),
  /** When above 0, each process pair carries `margin = marginScale * score gap` for the Bradley-Terry loss. @default 0 (no margin) */
  marginScale: z.number().nonnegative().default(0),
});
export type ProcessRubric = z.infer<typeof ProcessRubricSchema>;
export type ProcessRubricInput = z.input<typeof ProcessRubricSchema>;
