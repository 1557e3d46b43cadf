import type { GrpoConfigInput } from '../train/index.js';

/** Sizes of each demo stage (`--quick` for tests and a first look; the full run for the figures). */
export interface DemoSizes {
  /** Rounds, tasks per round and samples of the execution-reward training that makes the stronger checkpoint. */
  improve: { rounds: number; tasksPerRound: number; samplesPerTask: number };
  /** Train tasks collected from each checkpoint, and plans per task. */
  collect: { tasks: number; plansPerTask: number };
  /** Most epochs of reward-model training. */
  rmEpochs: number;
  /** Test tasks of Best-of-N and its N values (the last is the headline). */
  bon: { tasks: number; ns: number[] };
  /** GRPO settings (the GRPO config's own fields: steps, tasks per step, group size, evaluation interval), and held-out tasks and samples. */
  grpo: Required<Pick<GrpoConfigInput, 'steps' | 'tasksPerStep' | 'groupSize' | 'evalInterval'>> & { evalTasks: number; evalSamples: number };
}

export const FULL_SIZES: DemoSizes = {
  improve: { rounds: 10, tasksPerRound: 64, samplesPerTask: 8 },
  collect: { tasks: 2400, plansPerTask: 4 },
  rmEpochs: 12,
  bon: { tasks: 400, ns: [1, 2, 4, 8] },
  grpo: { steps: 20, tasksPerStep: 16, groupSize: 8, evalTasks: 100, evalSamples: 2, evalInterval: 4 },
};

export const QUICK_SIZES: DemoSizes = {
  improve: { rounds: 3, tasksPerRound: 24, samplesPerTask: 6 },
  collect: { tasks: 160, plansPerTask: 4 },
  rmEpochs: 6,
  bon: { tasks: 30, ns: [1, 2, 4, 8] },
  grpo: { steps: 4, tasksPerStep: 8, groupSize: 6, evalTasks: 30, evalSamples: 2, evalInterval: 2 },
};
