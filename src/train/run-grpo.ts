import { z } from 'zod';
import { InvalidInputError, UserError, zodIssues, type EventSink, type RewardModel, type Task } from '../core/index.js';
import type { Environment, HeldOutOptions, TrainableOrchestrator } from '../environment/index.js';
import type { Store } from '../store/index.js';
import { saveCheckpointToStore } from './checkpoint-store.js';
import { parseGrpoConfig, type GrpoConfigInput } from './grpo-config.js';
import { grpoRunKey, grpoStateFile, type GrpoResumeState } from './grpo-resume-state.js';
import { trainGrpo, type GrpoResult, type GrpoStepEndEvent } from './grpo-trainer.js';
import { createRewardSource, REWARD_KINDS, type RewardKind } from './reward-source-for.js';

/** GRPO was asked for in an environment whose orchestrator cannot be trained (no `trainable`). */
export class NoTrainablePolicyError extends UserError {
  constructor(readonly environment: string) {
    super(
      `GRPO needs an orchestrator it can train, and the environment ${environment} has none: remote orchestrators are not trainable here yet (no token log-probabilities). Train in the simulated environment (orchrm grpo --scenario <name>, or createSimEnvironment in orchrm/sim).`,
    );
  }
}

/**
 * Held-out evaluation of a GRPO run (`HeldOutOptions` with its defaults). Each field's metadata
 * is its `orchrm grpo` flag (`--eval-tasks`, which takes this default and also 0 for no
 * evaluation, `--eval-samples`, `--eval-seed`).
 */
export const GrpoEvaluationSchema = z.strictObject({
  /** Test-split tasks. @default 100 */
  tasks: z.number().int().min(1).default(100).meta({ flag: 'eval-tasks', description: 'held-out test tasks' }),
  /** Plans sampled (temperature 1) and executed per task. @default 4 */
  samplesPerTask: z.number().int().min(1).default(4).meta({ flag: 'eval-samples', description: 'sampled plans executed per held-out task' }),
  /** Seed of the held-out plans. @default 0 */
  seed: z.number().int().min(0).default(0).meta({ flag: 'eval-seed', description: 'seed of the held-out plans; keep it fixed to compare runs on the same draws' }),
}) satisfies z.ZodType<Required<HeldOutOptions>, HeldOutOptions>;

/**
 * The settings of a GRPO run around the trainer's config (`config`, `GrpoConfigSchema`):
 * `runGrpo` validates them and fills the defaults declared here, and `orchrm grpo` builds its
 * flags from these fields (metadata: help, and the flag's name where it is not the key's).
 */
export const RunGrpoSettingsSchema = z.strictObject({
  reward: z.enum(REWARD_KINDS).meta({ placeholder: 'kind', description: 'reward source' }),
  /** `hybrid`: share of plans also executed. @default 0.1 */
  executedFraction: z.number().min(0).max(1).default(0.1).meta({ flag: 'hybrid-fraction', placeholder: 'p', description: 'hybrid: share of plans also executed' }),
  /** Distinct train tasks cycled through. @default steps × tasksPerStep (every step sees new tasks) */
  trainTasks: z.number().int().min(1).optional().meta({ description: 'distinct train tasks cycled through (default: steps x tasks-per-step)' }),
  /**
   * Leave out the first K train-split tasks (`orchrm collect --scenario <s> --split train --count K`
   * uses them, e.g. for a reward model's episodes), so GRPO trains on others. @default 0
   */
  trainTaskOffset: z.number().int().min(0).default(0).meta({ flag: 'train-offset', description: "leave out the n train tasks `orchrm collect --split train --count n` uses (e.g. the reward model's)" }),
  /** Held-out evaluation; `false` skips it. @default 100 test tasks × 4 sampled plans */
  evaluation: z.union([GrpoEvaluationSchema, z.literal(false)]).default(() => GrpoEvaluationSchema.parse({})),
});

export type RunGrpoSettings = z.output<typeof RunGrpoSettingsSchema>;
export type RunGrpoSettingsInput = z.input<typeof RunGrpoSettingsSchema>;

export interface RunGrpoOptions<Checkpoint> extends RunGrpoSettingsInput {
  /** Starting checkpoint. @default the environment's initial checkpoint (`base` in the simulator) */
  from?: Checkpoint;
  /** For `rm` and `hybrid`. */
  rewardModel?: RewardModel;
  config?: GrpoConfigInput;
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
  const settings = parseRunGrpoSettings(options);
  const config = parseGrpoConfig({ name: `grpo-${settings.reward}`, ...options.config });
  const from = options.from ?? trainable.initialCheckpoint();
  const count = settings.trainTasks ?? config.steps * config.tasksPerStep;
  const tasks = trainTasksExcept(environment, count, settings.trainTaskOffset);
  const { stateFile } = options;
  const key = grpoRunKey({
    environment: environment.identity,
    from: policy.serialize(from),
    reward: settings.reward,
    rewardModel: options.rewardModel?.name ?? null,
    executedFraction: settings.executedFraction,
    config,
    tasks: tasks.map((task) => task.id),
    evaluation: settings.evaluation,
  });
  const states = grpoStateFile({ serialize: (checkpoint: Checkpoint) => policy.serialize(checkpoint), parse: (value, source) => trainable.parseCheckpoint(value, source) });
  const resume = stateFile !== undefined && options.resume === true ? states.load(stateFile, key) : undefined;
  if (options.resume) options.events?.({ type: 'grpo-resume', stepsDone: resume?.step ?? 0 });
  const storedCheckpoints: string[] = resume ? resume.storedCheckpoints.slice() : [];
  const { evaluation } = settings;
  const result = await trainGrpo({
    policy,
    from,
    tasks,
    reward: createRewardSource(settings.reward, environment, { rewardModel: options.rewardModel, executedFraction: settings.executedFraction }),
    config,
    ...(evaluation !== false && { evaluate: (checkpoint: Checkpoint) => trainable.evaluate(checkpoint, evaluation) }),
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
  return { ...result, reward: settings.reward, from: { name: start.checkpoint, step: start.step }, storedCheckpoints };
}

/** The run settings among the options, validated, with their defaults; throws `InvalidInputError` naming the field. */
function parseRunGrpoSettings(options: RunGrpoSettingsInput): RunGrpoSettings {
  const { reward, executedFraction, trainTasks, trainTaskOffset, evaluation } = options;
  const parsed = RunGrpoSettingsSchema.safeParse({ reward, executedFraction, trainTasks, trainTaskOffset, evaluation });
  if (!parsed.success) throw new InvalidInputError('GRPO run settings', zodIssues(parsed.error));
  return parsed.data;
}
