import { deriveSeed, Rng, sigmoid } from '../../core/index.js';
import type { SimProblem, SimStep, StepOutcome } from '../families/family.js';
import type { Scenario, WorkerConfig } from '../scenario/scenario-schema.js';
import { normalCdf } from './normal-cdf.js';

export interface SimulateAnswerOptions {
  scenario: Scenario;
  /** Skill logit of the model tier answering. */
  skill: number;
  /** Sampling temperature of the call. */
  temperature: number;
  /** Seed of the call's own latent stream (the request seed); the shared stream comes from the scenario seed. */
  seed: number;
  /** Logit bonus on every step (a refine call sees the critique). @default 0 */
  bonus?: number;
  /**
   * The call works a sub-task handed over by the orchestrator: it first pays a hand-off step of
   * `worker.handoffDifficulty`, whose failure corrupts the first real step. @default false
   */
  handoff?: boolean;
  /**
   * The call was told that a misleading statement is wrong (a refine after a critique that
   * flagged it, docs/sim.md §4.7): misled steps pay no `misleadPenalty`, and their failures are
   * ordinary slips rather than the statement's value. @default false
   */
  discountMisleading?: boolean;
}

export interface SimulatedAnswer {
  answer: string;
  /** One line per step, with the values actually used. */
  reasoning: string[];
  /** Reasoning steps the call went through (hidden reasoning tokens are billed per step). */
  stepsWorked: number;
}

/**
 * The competence model's logit of getting `step` (at position `index` in the call) right:
 * skill + bonus - stepDifficulty * difficulty - chainFatigue * index
 * - distractorPenalty * ln(1 + distractors) - misleadPenalty [misled]
 * - temperatureSlope * max(0, T - referenceTemperature) - interleavePenalty * (parts - 1)
 * - noEvidencePenalty [lookup/read, evidence absent; famousRecallPenalty for a famous entity's fact].
 */
export function stepLogit(
  worker: WorkerConfig,
  problem: Pick<SimProblem, 'distractorCount' | 'parts'>,
  step: SimStep,
  index: number,
  call: { skill: number; temperature: number; bonus: number; discountMisleading?: boolean },
): number {
  let logit = call.skill + call.bonus;
  logit -= worker.stepDifficulty * step.difficulty;
  logit -= worker.chainFatigue * index;
  logit -= worker.distractorPenalty * Math.log1p(problem.distractorCount);
  if (step.misled && call.discountMisleading !== true) logit -= worker.misleadPenalty;
  logit -= worker.temperatureSlope * Math.max(0, call.temperature - worker.referenceTemperature);
  logit -= worker.interleavePenalty * Math.max(0, (problem.parts ?? 1) - 1);
  if (step.kind !== 'compute' && step.evidence === 'absent') logit -= step.famous === true ? worker.famousRecallPenalty : worker.noEvidencePenalty;
  return logit;
}

/**
 * Draws every step's outcome from the competence model and works the problem with them: the
 * core of every worker call, also used by the simulated orchestrator for direct answers.
 *
 * Correlation is a Gaussian copula: z = sqrt(rho) z_shared + sqrt(1 - rho) z_call, and a step
 * succeeds iff Phi(z) < sigmoid(logit). z_shared comes from a stream seeded by
 * (scenario.seed, taskKey, step.key), or (scenario.seed, taskKey) when `correlationScope` is
 * `task`, so every call on the same task step shares it; z_call from (seed, step.key). A failed
 * step takes its wrong-value seed from the shared stream with probability `sharedWrongAnswer`
 * (so correlated failures also agree on the wrong value), else from the call stream.
 *
 * @example
 * const { answer } = simulateAnswer(problem, { scenario, skill: 3.2, temperature: 0.7, seed: 42 });
 */
export function simulateAnswer(problem: SimProblem, options: SimulateAnswerOptions): SimulatedAnswer {
  const { scenario, skill, temperature, seed, bonus = 0, handoff = false, discountMisleading = false } = options;
  const worker = scenario.worker;
  const sharedWeight = Math.sqrt(worker.correlation);
  const callWeight = Math.sqrt(1 - worker.correlation);
  const taskLatent = worker.correlationScope === 'task' ? new Rng(deriveSeed(scenario.seed, `task:${problem.taskKey}`)).normal() : 0;
  const call = { skill, temperature, bonus, discountMisleading };
  const outcome = (step: SimStep, index: number): StepOutcome => {
    const shared = new Rng(deriveSeed(scenario.seed, `step:${problem.taskKey}:${step.key}`));
    const sharedLatent = worker.correlationScope === 'task' ? taskLatent : shared.normal();
    const sharedWrongSeed = shared.nextUint32();
    const own = new Rng(deriveSeed(seed, `call:${step.key}`));
    const z = sharedWeight * sharedLatent + callWeight * own.normal();
    if (normalCdf(z) < sigmoid(stepLogit(worker, problem, step, index, call))) return { ok: true };
    const useShared = own.chance(worker.sharedWrongAnswer);
    const ownWrongSeed = own.nextUint32();
    return { ok: false, wrongSeed: useShared ? sharedWrongSeed : ownWrongSeed, planted: step.misled && !discountMisleading };
  };
  const firstKey = problem.steps[0]?.key;
  const payHandoff = handoff && worker.handoffDifficulty > 0 && firstKey !== undefined;
  // The hand-off is a step like any other, drawn first; the real steps then come one later in the chain.
  const handoffOutcome: StepOutcome = payHandoff
    ? outcome({ key: `handoff:${firstKey}`, kind: 'compute', difficulty: worker.handoffDifficulty, evidence: 'not_needed', misled: false }, 0)
    : { ok: true };
  const offset = payHandoff ? 1 : 0;
  const solved = problem.solve((step, index) =>
    index === 0 && !handoffOutcome.ok ? { ...handoffOutcome, planted: step.misled && !discountMisleading } : outcome(step, index + offset),
  );
  return { answer: solved.answer, reasoning: solved.reasoning, stepsWorked: problem.steps.length + offset };
}
