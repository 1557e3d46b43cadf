import type { Dom, Rng } from '../../core/index.js';
import type { SimFamily } from '../families/family.js';
import type { Scenario } from '../scenario/scenario-schema.js';
import { gradLogProb, logProbOf, type Decision } from './log-linear.js';
import type { PolicyCheckpoint, PolicyWeights } from './policy-checkpoint.js';
import { samplePlanText, type SampledPlanText } from './sample-plan-text.js';
import type { AnswerDirectly } from './sample-plan.js';
import type { PlanTextFormat } from './write-plan-text.js';

export interface SimPolicyOptions {
  scenario: Scenario;
  /** Families asked, in order, to decompose questions. */
  families: readonly SimFamily[];
  /** Answers a question without agents (the simulated worker's solver). */
  answerDirectly: AnswerDirectly;
}

export interface SimPolicySampleOptions {
  /** A DoM imposed by the prompt; the `dom` head is then not drawn. */
  dom?: Dom | undefined;
  /** A format imposed by the prompt; else XML with probability `scenario.orchestrator.xmlShare`. */
  format?: PlanTextFormat | undefined;
  /** Decision temperature; 0 is greedy (evaluation). @default 1 */
  temperature?: number | undefined;
}

/**
 * The simulated orchestrator as a trainable stochastic policy: samples plans (with plan text,
 * decisions and log-probability) and scores or differentiates given decisions. What a GRPO
 * trainer needs: `sample` G times per task, `logProbOf` for ratios, `gradLogProb` for updates.
 */
export interface SimPolicy {
  sample(question: string, rng: Rng, checkpoint: PolicyCheckpoint, options?: SimPolicySampleOptions): SampledPlanText;
  logProbOf(question: string, decisions: readonly Decision[], checkpoint: PolicyCheckpoint): number;
  gradLogProb(question: string, decisions: readonly Decision[], checkpoint: PolicyCheckpoint): PolicyWeights;
}

/**
 * @example
 * const policy = createSimPolicy({ scenario, families, answerDirectly });
 * const { text, decisions, logProb } = policy.sample(task.question, new Rng(7), baseCheckpoint());
 */
export function createSimPolicy(options: SimPolicyOptions): SimPolicy {
  const { scenario, families, answerDirectly } = options;
  return {
    sample: (question, rng, checkpoint, sampleOptions = {}) =>
      samplePlanText(question, rng, checkpoint, { families, answerDirectly, orchestrator: scenario.orchestrator, ...sampleOptions }),
    logProbOf,
    gradLogProb,
  };
}
