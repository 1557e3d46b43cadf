import type { OrchestratorRef, Task, Usage } from '../core/index.js';

/** One plan a policy wrote for a task, with what a policy-gradient trainer needs to learn from it. */
export interface PolicySample<Action> {
  /** The plan text, exactly as an orchestrator would return it (what rewards read or execute). */
  text: string;
  /** What the policy decided; scored again by `logProb` under later checkpoints. */
  action: Action;
  /** log π(action | task) under the checkpoint that sampled it, at temperature 1. */
  logProb: number;
  /** Tokens the orchestrator spent writing the plan (prompt and completion). */
  usage: Usage;
}

export interface PolicySampleOptions {
  /** Seed of this one sample; the same seed, task and checkpoint give the same sample. */
  seed: number;
  /** Decision temperature; 0 is greedy. Training samples use 1 so `logProb` is the behaviour policy's. @default 1 */
  temperature?: number;
}

/**
 * An orchestrator that GRPO can train: it samples plans with their log-probabilities, scores
 * its own earlier actions under any checkpoint (for importance ratios and the KL term), and
 * takes gradient steps. `Checkpoint` is an immutable state, `Gradient` an accumulator in the
 * checkpoint's layout. The simulated orchestrator implements it (`createSimTrainablePolicy` in `sim/`);
 * a real LLM orchestrator would implement it over token log-probabilities.
 *
 * @example
 * const sample = await policy.sample(task, checkpoint, { seed: 7 });
 * const gradient = policy.zeroGradient();
 * policy.addGradLogProb(gradient, task, sample.action, checkpoint, advantage);
 * const next = policy.applyGradient(checkpoint, gradient, 0.5);
 */
export interface TrainablePolicy<Checkpoint, Action, Gradient> {
  readonly name: string;
  sample(task: Task, checkpoint: Checkpoint, options: PolicySampleOptions): Promise<PolicySample<Action>>;
  /** log π(action | task) under `checkpoint` (temperature 1). */
  logProb(task: Task, action: Action, checkpoint: Checkpoint): number;
  /** A zero gradient in the checkpoints' layout. */
  zeroGradient(): Gradient;
  /** `gradient += scale · ∇ log π(action | task)` at `checkpoint`. */
  addGradLogProb(gradient: Gradient, task: Task, action: Action, checkpoint: Checkpoint, scale: number): void;
  /** A new checkpoint `checkpoint + stepSize · gradient`; the input is not changed. */
  applyGradient(checkpoint: Checkpoint, gradient: Gradient, stepSize: number): Checkpoint;
  /** A copy under another name (a training run names what it produces). */
  rename(checkpoint: Checkpoint, name: string): Checkpoint;
  /** Who wrote a plan, as episodes record it (the `checkpoint` pair miner reads this). */
  ref(checkpoint: Checkpoint): OrchestratorRef & { checkpoint: string; step: number };
  /** The checkpoint as JSON (for the store and for files). */
  serialize(checkpoint: Checkpoint): unknown;
}

/** A held-out measurement of a checkpoint; its tokens are evaluation cost, never training cost. */
export interface HeldOutEvaluation {
  accuracy: number;
  episodes: number;
  /** Tokens the evaluation spent (kept apart from training tokens). */
  tokens: number;
}

/** Which held-out tasks a checkpoint is measured on, and how. */
export interface HeldOutOptions {
  /** Test-split tasks. @default 100 */
  tasks?: number;
  /** Plans sampled (temperature 1) and executed per task. @default 4 */
  samplesPerTask?: number;
  /** @default 0 */
  seed?: number;
}

/**
 * What an environment offers when its orchestrator can be trained (`Environment.trainable`):
 * the policy, its checkpoints (start, files, the JSON `policy.serialize` writes) and a held-out
 * measurement. GRPO (`runGrpo` in `train/`) needs nothing else of the environment's orchestrator.
 * Methods only, so an environment's typed implementation is also one of `unknown` checkpoints.
 */
export interface TrainableOrchestrator<Checkpoint, Action, Gradient> {
  readonly policy: TrainablePolicy<Checkpoint, Action, Gradient>;
  /** The untrained starting checkpoint. */
  initialCheckpoint(): Checkpoint;
  /** A checkpoint file written by `saveCheckpoint`. */
  loadCheckpoint(file: string): Promise<Checkpoint>;
  saveCheckpoint(checkpoint: Checkpoint, file: string): Promise<void>;
  /** Reads back what `policy.serialize` wrote; `source` names where it came from in errors. */
  parseCheckpoint(value: unknown, source: string): Checkpoint;
  /** Held-out accuracy of a checkpoint on test-split tasks, by executing its plans. */
  evaluate(checkpoint: Checkpoint, options?: HeldOutOptions): Promise<HeldOutEvaluation>;
}
