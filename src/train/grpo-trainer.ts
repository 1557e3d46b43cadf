import { deriveSeed, type EventSink, type Task, UserError } from '../core/index.js';
import { clippedSurrogate, klK3 } from './clipped-objective.js';
import { parseGrpoConfig, type GrpoConfig, type GrpoConfigInput } from './grpo-config.js';
import { groupAdvantages } from './group-advantages.js';
import type { GrpoResumeState } from './grpo-resume-state.js';
import type { PlanReward, RewardGroup, RewardSource } from './reward-source.js';
import type { HeldOutEvaluation, PolicySample, TrainablePolicy } from '../environment/index.js';

export type { HeldOutEvaluation };

/** Training tokens by who spent them (cumulative or per step). */
export interface TrainingTokens {
  orchestrator: number;
  execution: number;
  verification: number;
  total: number;
}

/** Held-out accuracy of the current policy, taken at `step` after `trainingTokens` training tokens. */
export interface EvaluationPoint extends HeldOutEvaluation {
  step: number;
  trainingTokens: TrainingTokens;
}

/** What one GRPO step logged. */
export interface GrpoStepLog {
  /** 1-based: the number of GRPO steps done. */
  step: number;
  meanReward: number;
  /** Share of sampled plans graded correct, among those executed (undefined when none ran). */
  executedAccuracy?: number;
  /** Groups whose rewards all tied (no signal). */
  flatGroups: number;
  /** Share of samples whose ratio was clipped, over all inner epochs. */
  clipFraction: number;
  /** Mean k3 estimate of KL(π_θ ‖ π_ref) on the last inner epoch (0 when β = 0: not computed). */
  meanKl: number;
  /** This step's training tokens. */
  stepTokens: TrainingTokens;
  /** Training tokens so far. */
  tokens: TrainingTokens;
  /** Set on evaluation steps. */
  evaluation?: HeldOutEvaluation;
}

export interface GrpoTrainerOptions<Checkpoint, Action, Gradient> {
  policy: TrainablePolicy<Checkpoint, Action, Gradient>;
  /** Starting checkpoint; training works on a copy renamed `config.name`. */
  from: Checkpoint;
  /** Reference of the KL penalty. @default `from` */
  reference?: Checkpoint;
  /** Train tasks; step s takes `tasksPerStep` of them from index s · tasksPerStep, wrapping. */
  tasks: readonly Task[];
  reward: RewardSource;
  config?: GrpoConfigInput;
  /** Held-out accuracy of a checkpoint (e.g. a trainable orchestrator's `evaluate`); skipped when absent. */
  evaluate?: (checkpoint: Checkpoint) => Promise<HeldOutEvaluation>;
  /** A `grpo-step-end` event after every step. */
  events?: EventSink<GrpoStepEndEvent>;
  /** Hook (awaited; not an event): receives checkpoints to persist: every `checkpointInterval` steps and the final one. */
  onCheckpoint?: (checkpoint: Checkpoint, step: number) => void | Promise<void>;
  signal?: AbortSignal;
  /** State after an earlier run's step (`onState`); training continues with the next step. */
  resume?: GrpoResumeState<Checkpoint>;
  /** Hook (awaited; not an event): called after every step (after `onCheckpoint`) with everything needed to resume after it. */
  onState?: (state: GrpoResumeState<Checkpoint>) => void | Promise<void>;
}

/** Sent after every GRPO step. */
export interface GrpoStepEndEvent {
  type: 'grpo-step-end';
  log: GrpoStepLog;
}

export interface GrpoResult<Checkpoint> {
  checkpoint: Checkpoint;
  config: GrpoConfig;
  history: GrpoStepLog[];
  /** Held-out accuracy before training (step 0), every `evalInterval` steps, and at the end. */
  evaluations: EvaluationPoint[];
  /** Cumulative evaluation tokens (not training tokens). */
  evaluationTokens: number;
}

/**
 * GRPO (Shao et al. 2024, DeepSeekMath §4.1) for any `TrainablePolicy`. Each step samples G
 * plans for each of the step's tasks from the current checkpoint (seed
 * `deriveSeed(seed, 'grpo:<step>:<task id>:<i>')`), rewards them, normalises rewards within
 * each group (`groupAdvantages`), then takes `innerEpochs` gradient-ascent steps on
 *
 *   J(θ) = (1/N) Σ_i [ min(ρ_i A_i, clip(ρ_i, 1-ε, 1+ε) A_i) − β · k3_i ],
 *
 * with ρ_i = π_θ(a_i)/π_old(a_i) over the whole plan (the plan is one action: its decisions'
 * log-probabilities summed) and k3 the per-sample KL estimate to the reference (`klK3`).
 * Deterministic given the seed, the policy and a deterministic reward.
 *
 * @example
 * const result = await trainGrpo({ policy, from: baseCheckpoint(), tasks, reward: createExecutionReward({ environment }), config: { steps: 10 } });
 */
export async function trainGrpo<Checkpoint, Action, Gradient>(options: GrpoTrainerOptions<Checkpoint, Action, Gradient>): Promise<GrpoResult<Checkpoint>> {
  const { policy, tasks, reward, evaluate, signal } = options;
  const config = parseGrpoConfig(options.config);
  if (tasks.length === 0) throw new UserError('GRPO needs at least one train task; generate or load some first');
  const reference = options.reference ?? options.from;
  const { resume } = options;
  let current = resume?.checkpoint ?? policy.rename(options.from, config.name);
  const tokens = resume ? { ...resume.tokens } : emptyTokens();
  const history: GrpoStepLog[] = resume ? resume.history.slice() : [];
  const evaluations: EvaluationPoint[] = resume ? resume.evaluations.slice() : [];
  let evaluationTokens = resume?.evaluationTokens ?? 0;
  const evaluateAt = async (step: number) => {
    if (!evaluate) return undefined;
    const result = await evaluate(current);
    evaluationTokens += result.tokens;
    evaluations.push({ ...result, step, trainingTokens: { ...tokens } });
    return result;
  };
  if (!resume) await evaluateAt(0);

  // Every draw derives from (seed, step, task, i), so starting at a later step reproduces it exactly.
  for (let step = resume?.step ?? 0; step < config.steps; step++) {
    signal?.throwIfAborted();
    const stepTasks = Array.from({ length: config.tasksPerStep }, (_, index) => tasks[(step * config.tasksPerStep + index) % tasks.length] as Task);
    const sampling = current;
    const samples: PolicySample<Action>[][] = [];
    const groups: RewardGroup[] = [];
    for (const task of stepTasks) {
      const seeds = Array.from({ length: config.groupSize }, (_, index) => deriveSeed(config.seed, `grpo:${step}:${task.id}:${index}`));
      const group = await Promise.all(seeds.map((seed) => policy.sample(task, sampling, { seed })));
      samples.push(group);
      groups.push({ task, plans: group.map((sample, index) => ({ text: sample.text, seed: seeds[index] as number, sampleIndex: index })) });
    }
    const rewards = await reward.reward(groups, { orchestrator: policy.ref(sampling), step, ...(signal !== undefined && { signal }) });
    const flatRewards = rewards.flat();
    if (flatRewards.length !== config.tasksPerStep * config.groupSize) {
      throw new UserError(`reward source ${reward.name} returned ${flatRewards.length} rewards for ${config.tasksPerStep * config.groupSize} plans; it must return one per plan`);
    }
    const advantages = groupAdvantages(
      flatRewards.map((result) => result.reward),
      config.groupSize,
      config,
    );
    const update = optimise(policy, current, reference, stepTasks, samples, advantages, config);
    current = update.checkpoint;

    const stepTokens = countTokens(samples.flat(), flatRewards);
    addTokens(tokens, stepTokens);
    const executed = flatRewards.filter((result) => result.correct !== undefined);
    const log: GrpoStepLog = {
      step: step + 1,
      meanReward: flatRewards.reduce((sum, result) => sum + result.reward, 0) / flatRewards.length,
      ...(executed.length > 0 && { executedAccuracy: executed.filter((result) => result.correct).length / executed.length }),
      flatGroups: countFlatGroups(flatRewards, config.groupSize),
      clipFraction: update.clipFraction,
      meanKl: update.meanKl,
      stepTokens,
      tokens: { ...tokens },
    };
    const last = step + 1 === config.steps;
    if (last || (config.evalInterval > 0 && (step + 1) % config.evalInterval === 0)) {
      const evaluation = await evaluateAt(step + 1);
      if (evaluation) log.evaluation = evaluation;
    }
    history.push(log);
    options.events?.({ type: 'grpo-step-end', log });
    if (options.onCheckpoint && (last || (config.checkpointInterval > 0 && (step + 1) % config.checkpointInterval === 0))) {
      await options.onCheckpoint(current, step + 1);
    }
    await options.onState?.({ step: step + 1, checkpoint: current, tokens: { ...tokens }, history, evaluations, evaluationTokens });
  }
  return { checkpoint: current, config, history, evaluations, evaluationTokens };
}

/** The inner epochs of one GRPO step: gradient ascent on the clipped objective with the KL penalty. */
function optimise<Checkpoint, Action, Gradient>(
  policy: TrainablePolicy<Checkpoint, Action, Gradient>,
  start: Checkpoint,
  reference: Checkpoint,
  tasks: readonly Task[],
  samples: readonly (readonly PolicySample<Action>[])[],
  advantages: Float64Array,
  config: GrpoConfig,
): { checkpoint: Checkpoint; clipFraction: number; meanKl: number } {
  const count = advantages.length;
  const referenceLogProbs = config.klCoefficient > 0 ? samples.flatMap((group, taskIndex) => group.map((sample) => policy.logProb(tasks[taskIndex] as Task, sample.action, reference))) : [];
  let checkpoint = start;
  let clipped = 0;
  let klSum = 0;
  for (let epoch = 0; epoch < config.innerEpochs; epoch++) {
    const gradient = policy.zeroGradient();
    klSum = 0;
    let index = 0;
    samples.forEach((group, taskIndex) => {
      const task = tasks[taskIndex] as Task;
      for (const sample of group) {
        const advantage = advantages[index] as number;
        // On the first epoch θ = θ_old, so the ratio is exactly 1 and needs no recomputation.
        const logProb = epoch === 0 ? sample.logProb : policy.logProb(task, sample.action, checkpoint);
        const surrogate = clippedSurrogate(logProb, sample.logProb, advantage, config.clipEpsilon);
        if (surrogate.clipped) clipped++;
        let scale = surrogate.gradientScale;
        if (config.klCoefficient > 0) {
          const kl = klK3(logProb, referenceLogProbs[index] as number);
          klSum += kl.value;
          scale -= config.klCoefficient * kl.gradientScale;
        }
        if (scale !== 0) policy.addGradLogProb(gradient, task, sample.action, checkpoint, scale / count);
        index++;
      }
    });
    checkpoint = policy.applyGradient(checkpoint, gradient, config.learningRate);
  }
  return { checkpoint, clipFraction: clipped / (count * config.innerEpochs), meanKl: klSum / count };
}

function emptyTokens(): TrainingTokens {
  return { orchestrator: 0, execution: 0, verification: 0, total: 0 };
}

function countTokens(samples: readonly PolicySample<unknown>[], rewards: readonly PlanReward[]): TrainingTokens {
  const tokens = emptyTokens();
  for (const sample of samples) tokens.orchestrator += sample.usage.totalTokens;
  for (const result of rewards) {
    tokens.execution += result.executionTokens;
    tokens.verification += result.verificationTokens;
  }
  tokens.total = tokens.orchestrator + tokens.execution + tokens.verification;
  return tokens;
}

function addTokens(into: TrainingTokens, from: TrainingTokens): void {
  into.orchestrator += from.orchestrator;
  into.execution += from.execution;
  into.verification += from.verification;
  into.total += from.total;
}

function countFlatGroups(rewards: readonly PlanReward[], groupSize: number): number {
  let flat = 0;
  for (let start = 0; start < rewards.length; start += groupSize) {
    const first = rewards[start]?.reward;
    if (rewards.slice(start, start + groupSize).every((result) => result.reward === first)) flat++;
  }
  return flat;
}
