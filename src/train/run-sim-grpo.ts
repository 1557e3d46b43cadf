import { UserError } from '../core/errors.js';
import type { RewardModel } from '../core/reward-model.js';
import type { Task } from '../core/task.js';
import type { SimFamily } from '../sim/index.js';
import { createSimEnvironment, generateScenarioTasks, loadScenario, type Scenario } from '../sim/index.js';
import { baseCheckpoint, checkpointToFile, saveCheckpoint, type PolicyCheckpoint } from '../sim/policy/index.js';
import type { Store } from '../store/index.js';
import { saveCheckpointToStore } from './checkpoint-store.js';
import { parseGrpoConfig, type GrpoConfigInput } from './grpo-config.js';
import { grpoRunKey, loadSimGrpoState, saveSimGrpoState, type GrpoResumeState } from './grpo-resume-state.js';
import { trainGrpo, type GrpoResult, type GrpoStepLog } from './grpo-trainer.js';
import { createSimHeldOutEvaluator, type SimHeldOutOptions } from './sim-held-out-evaluator.js';
import { createSimRewardSource, type RewardKind } from './sim-reward-source.js';
import { createSimTrainablePolicy } from './sim-trainable-policy.js';

export interface RunSimGrpoOptions {
  /** A built-in scenario name, a scenario file, or a parsed scenario. */
  scenario: string | Scenario;
  /** Starting checkpoint. @default the base checkpoint */
  from?: PolicyCheckpoint;
  reward: RewardKind;
  /** For `rm` and `hybrid`. */
  rewardModel?: RewardModel;
  /** `hybrid`: share of plans also executed. @default 0.1 */
  executedFraction?: number;
  config?: GrpoConfigInput;
  /** Distinct train tasks cycled through. @default steps × tasksPerStep (every step sees new tasks) */
  trainTasks?: number;
  /**
   * Leave out the K train-split tasks `orchrm collect --scenario <s> --split train --count K`
   * uses (e.g. those a reward model's episodes were collected on), so GRPO trains on others. @default 0
   */
  trainTaskOffset?: number;
  /** Held-out evaluation; `false` skips it. @default 100 test tasks × 4 sampled plans */
  evaluation?: SimHeldOutOptions | false;
  /** Checkpoints handed off by the trainer are written here (`checkpoints` table). */
  store?: Store;
  /** The final checkpoint is written here as JSON (`loadCheckpoint` reads it). */
  outFile?: string;
  onStep?: (log: GrpoStepLog) => void;
  signal?: AbortSignal;
  /** Resume state written atomically after every step (the caller removes it when done). */
  stateFile?: string;
  /** Continue from `stateFile` when it exists; it must come from a run with the same options. */
  resume?: boolean;
  /** Called before training with the steps taken from `stateFile` (0: none, training starts from scratch). */
  onResume?: (stepsDone: number) => void;
}

export interface RunSimGrpoResult extends GrpoResult<PolicyCheckpoint> {
  reward: RewardKind;
  from: { name: string; step: number };
  /** Store ids of the checkpoints written, in order. */
  storedCheckpoints: string[];
}

/** `count` train tasks none of which is among the first `excluded` (task lists are not prefix-stable in their count). */
function trainTasksExcept(scenario: Scenario, families: readonly SimFamily[], count: number, excluded: number): Task[] {
  if (excluded === 0) return generateScenarioTasks(scenario, families, { split: 'train', count });
  const left = new Set(generateScenarioTasks(scenario, families, { split: 'train', count: excluded }).map((task) => task.question));
  const kept = generateScenarioTasks(scenario, families, { split: 'train', count: excluded + count + 64 }).filter((task) => !left.has(task.question));
  if (kept.length < count) throw new UserError(`only ${kept.length} train tasks remain after leaving out ${excluded}; ask for fewer steps or tasks per step`);
  return kept.slice(0, count);
}

/**
 * GRPO for the simulated orchestrator of a scenario, wired end to end: train-split tasks,
 * the reward source by kind, held-out evaluation on test-split tasks, checkpoints to the store
 * and a file. What `orchrm grpo` runs.
 *
 * @example
 * const result = await runSimGrpo({ scenario: 'default', reward: 'rm', rewardModel, config: { steps: 30 } });
 */
export async function runSimGrpo(options: RunSimGrpoOptions): Promise<RunSimGrpoResult> {
  const scenario = typeof options.scenario === 'string' ? loadScenario(options.scenario) : options.scenario;
  const environment = await createSimEnvironment(scenario);
  const config = parseGrpoConfig({ name: `grpo-${options.reward}`, ...options.config });
  const from = options.from ?? baseCheckpoint();
  const count = options.trainTasks ?? config.steps * config.tasksPerStep;
  const tasks = trainTasksExcept(scenario, environment.families, count, options.trainTaskOffset ?? 0);
  const policy = createSimTrainablePolicy(environment);
  const { stateFile } = options;
  const key = grpoRunKey({
    scenario,
    from: checkpointToFile(from),
    reward: options.reward,
    rewardModel: options.rewardModel?.name ?? null,
    executedFraction: options.executedFraction ?? null,
    config,
    tasks: tasks.map((task) => task.id),
    evaluation: options.evaluation ?? null,
  });
  const resume = stateFile !== undefined && options.resume === true ? loadSimGrpoState(stateFile, key) : undefined;
  if (options.resume) options.onResume?.(resume?.step ?? 0);
  const storedCheckpoints: string[] = resume ? resume.storedCheckpoints.slice() : [];
  const result = await trainGrpo({
    policy,
    from,
    tasks,
    reward: createSimRewardSource(options.reward, environment, {
      rewardModel: options.rewardModel,
      ...(options.executedFraction !== undefined && { executedFraction: options.executedFraction }),
    }),
    config,
    ...(options.evaluation !== false && { evaluate: createSimHeldOutEvaluator(environment, options.evaluation ?? {}) }),
    ...(options.onStep !== undefined && { onStep: options.onStep }),
    ...(options.signal !== undefined && { signal: options.signal }),
    onCheckpoint: async (checkpoint) => {
      if (options.store) {
        const stored = saveCheckpointToStore(options.store, { orchestrator: policy.name, name: checkpoint.name, step: checkpoint.step, payload: checkpointToFile(checkpoint) });
        storedCheckpoints.push(stored.id);
      }
    },
    ...(resume && { resume }),
    ...(stateFile !== undefined && { onState: (state: GrpoResumeState<PolicyCheckpoint>) => saveSimGrpoState(stateFile, { ...state, storedCheckpoints }, key) }),
  });
  if (options.outFile !== undefined) await saveCheckpoint(result.checkpoint, options.outFile);
  return { ...result, reward: options.reward, from: { name: from.name, step: from.step }, storedCheckpoints };
}
