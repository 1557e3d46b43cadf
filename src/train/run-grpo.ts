import { UserError, type EventSink, type RewardModel, type Task } from '../core/index.js';
import type { Environment, HeldOutOptions, TrainableOrchestrator } from '../environment/index.js';
import type { Store } from '../store/index.js';
import { saveCheckpointToStore } from './checkpoint-store.js';
import { parseGrpoConfig, type GrpoConfigInput } from './grpo-config.js';
import { grpoRunKey, grpoStateFile, type GrpoResumeState } from './grpo-resume-state.js';
import { trainGrpo, type GrpoResult, type GrpoStepEndEvent } from './grpo-trainer.js';
import { createRewardSource, type RewardKind } from './reward-source-for.js';

/** GRPO was asked for in an environment whose orchestrator cannot be trained (no `trainable`). */
export class NoTrainablePolicyError extends UserError {
  constructor(readonly environment: string) {
    super(
      `GRPO needs an orchestrator it can train, and the environment ${environment} has none: remote orchestrators are not trainable here yet (no token log-probabilities). Train in the simulated environment (orchrm grpo --scenario <name>, or createSimEnvironment in orchrm/sim).`,
    );
  }
}

export interface RunGrpoOptions<Checkpoint> {
  /** Starting checkpoint. @default the environment's initial checkpoint (`base` in the simulator) */
  from?: Checkpoint;
  reward: RewardKind;
  /** For `rm` and `hybrid`. */
  rewardModel?: RewardModel;
  /** `hybrid`: share of plans also executed. @default 0.1 */
  executedFraction?: number;
  config?: GrpoConfigInput;
  /** Distinct train tasks cycled through. @default steps × tasksPerStep (every step sees new tasks) */
  trainTasks?: number;
  /**
   * Leave out the first K train-split tasks (`orchrm collect --scenario <s> --split train --count K`
   * uses them, e.g. for a reward model's episodes), so GRPO trains on others. @default 0
   */
  trainTaskOffset?: number;
  /** Held-out evaluation; `false` skips it. @default 100 test tasks × 4 sampled plans */
  evaluation?: HeldOutOptions | false;
  /** Checkpoints handed off by the trainer are written here (`checkpoints` table). */
  store?: Store;
  /** The final checkpoint is written here (the environment's `loadCheckpoint` reads it). */
  outFile?: string;
  /** `grpo-resume` before training (with `resume`), then `grpo-step-end` after every step. */
  events?: EventSink<GrpoEvent>;
  signal?: AbortSignal;
  /** Resume state written atomically after every step (the caller removes it when done, `removeGrpoState`). */
  stateFile?: string;
  /** Continue from `stateFile` when it exists; it must come from a run with the same options. */
  resume?: boolean;
}

/** What `runGrpo` reports. */
export type GrpoEvent = GrpoStepEndEvent | { type: 'grpo-resume'; /** Steps taken from `stateFile`; 0: none, training starts from scratch. */ stepsDone: number };

export interface RunGrpoResult<Checkpoint> extends GrpoResult<Checkpoint> {
  reward: RewardKind;
  from: { name: string; step: number };
  /** Store ids of the checkpoints written, in order. */
  storedCheckpoints: string[];
}

/** An environment with a trainable orchestrator, its checkpoints typed. */
type TrainableEnvironment<Checkpoint, Action, Gradient> = Omit<Environment, 'trainable'> & { readonly trainable?: TrainableOrchestrator<Checkpoint, Action, Gradient> | undefined };

/** `count` train tasks none of which is among the first `excluded` (generated task lists are not prefix-stable in their count). */
function trainTasksExcept(environment: Pick<Environment, 'tasks'>, count: number, excluded: number): Task[] {
  if (excluded === 0) return environment.tasks('train', count);
  const left = new Set(environment.tasks('train', excluded).map((task) => task.question));
  const kept = environment.tasks('train', excluded + count + 64).filter((task) => !left.has(task.question));
  if (kept.length < count) throw new UserError(`only ${kept.length} train tasks remain after leaving out ${excluded}; ask for fewer steps or tasks per step`);
  return kept.slice(0, count);
}

/**
 * GRPO for the trainable orchestrator of an environment, wired end to end: train-split tasks,
 * the reward source by kind, held-out evaluation on test-split tasks, checkpoints to the store
 * and a file, and a resume state after every step. What `orchrm grpo` runs. Throws
 * NoTrainablePolicyError when the environment's orchestrator cannot be trained.
 *
 * @example
 * const result = await runGrpo(await createSimEnvironment(loadScenario('default')), { reward: 'rm', rewardModel, config: { steps: 30 } });
 */
export async function runGrpo<Checkpoint, Action, Gradient>(
  environment: TrainableEnvironment<Checkpoint, Action, Gradient>,
  options: RunGrpoOptions<Checkpoint>,
): Promise<RunGrpoResult<Checkpoint>> {
  const { trainable } = environment;
  if (trainable === undefined) throw new NoTrainablePolicyError(environment.name);
  const { policy } = trainable;
  const config = parseGrpoConfig({ name: `grpo-${options.reward}`, ...options.config });
  const from = options.from ?? trainable.initialCheckpoint();
  const count = options.trainTasks ?? config.steps * config.tasksPerStep;
  const tasks = trainTasksExcept(environment, count, options.trainTaskOffset ?? 0);
  const { stateFile } = options;
  const key = grpoRunKey({
    environment: environment.identity,
    from: policy.serialize(from),
    reward: options.reward,
    rewardModel: options.rewardModel?.name ?? null,
    executedFraction: options.executedFraction ?? null,
    config,
    tasks: tasks.map((task) => task.id),
    evaluation: options.evaluation ?? null,
  });
  const states = grpoStateFile({ serialize: (checkpoint: Checkpoint) => policy.serialize(checkpoint), parse: (value, source) => trainable.parseCheckpoint(value, source) });
  const resume = stateFile !== undefined && options.resume === true ? states.load(stateFile, key) : undefined;
  if (options.resume) options.events?.({ type: 'grpo-resume', stepsDone: resume?.step ?? 0 });
  const storedCheckpoints: string[] = resume ? resume.storedCheckpoints.slice() : [];
  const { evaluation } = options;
  const result = await trainGrpo({
    policy,
    from,
    tasks,
    reward: createRewardSource(options.reward, environment, {
      rewardModel: options.rewardModel,
      ...(options.executedFraction !== undefined && { executedFraction: options.executedFraction }),
    }),
    config,
    ...(evaluation !== false && { evaluate: (checkpoint: Checkpoint) => trainable.evaluate(checkpoint, evaluation ?? {}) }),
    ...(options.events !== undefined && { events: options.events }),
    ...(options.signal !== undefined && { signal: options.signal }),
    onCheckpoint: async (checkpoint) => {
      if (options.store) {
        const { checkpoint: name, step } = policy.ref(checkpoint);
        const stored = saveCheckpointToStore(options.store, { orchestrator: policy.name, name, step, payload: policy.serialize(checkpoint) });
        storedCheckpoints.push(stored.id);
      }
    },
    ...(resume && { resume }),
    ...(stateFile !== undefined && { onState: (state: GrpoResumeState<Checkpoint>) => states.save(stateFile, { ...state, storedCheckpoints }, key) }),
  });
  if (options.outFile !== undefined) await trainable.saveCheckpoint(result.checkpoint, options.outFile);
  const start = policy.ref(from);
  return { ...result, reward: options.reward, from: { name: start.checkpoint, step: start.step }, storedCheckpoints };
}
