import type { GrpoConfigInput } from '../train/index.js';

/** Sizes of each demo stage (`--quick` for tests and a first look; the full run for the figures). */
export interface DemoSizes {
  /** Rounds, tasks per round and samples of the execution-reward training that makes the stronger checkpoint. */
  improve: { rounds: number; tasksPerRound: number; samplesPerTask: number };
  /**
   * Train tasks collected from each checkpoint, plans per task, and the share of those tasks on
   * which every template plan also runs (with the base checkpoint's collection), so the reward
   * model sees the templates' outcomes.
   */
  collect: { tasks: number; plansPerTask: number; templateShare: number };
  /** Most epochs of reward-model training. */
  rmEpochs: number;
  /** Test tasks of Best-of-N and its N values (the last is the headline). */
  bon: { tasks: number; ns: number[] };
  /**
   * GRPO settings (the GRPO config's own fields: steps, tasks per step, group size, evaluation
   * interval), held-out tasks and samples, how many seeds each reward is run with, and the share
   * of the collection's training tasks (the learning curve's order) the GRPO reward model is
   * trained on: training an orchestrator needs a smaller collection than Best-of-N's model, and
   * the bill charges only what the GRPO reward model read.
   */
  grpo: Required<Pick<GrpoConfigInput, 'steps' | 'tasksPerStep' | 'groupSize' | 'evalInterval'>> & { evalTasks: number; evalSamples: number; seeds: number; rewardShare: number };
}

export const FULL_SIZES: DemoSizes = {
  improve: { rounds: 10, tasksPerRound: 64, samplesPerTask: 8 },
  // 600 train tasks: where the learning curve of the 2,400-task collection flattens (docs/rm.md, "Learning curves").
  collect: { tasks: 600, plansPerTask: 4, templateShare: 0.25 },
  rmEpochs: 12,
  bon: { tasks: 400, ns: [1, 2, 4, 8] },
  // rewardShare 0.25 (about 135 train tasks): set before any run from issue 22's figure that 150 train tasks give the full collection's Best-of-8 within noise.
  // 10 seeds: a run costs about 2 CPU-s, and 3 seeds leave the gain's interval too wide to judge (docs/train.md).
  grpo: { steps: 20, tasksPerStep: 16, groupSize: 8, evalTasks: 100, evalSamples: 2, evalInterval: 4, seeds: 10, rewardShare: 0.25 },
};

export const QUICK_SIZES: DemoSizes = {
  improve: { rounds: 3, tasksPerRound: 24, samplesPerTask: 6 },
  collect: { tasks: 160, plansPerTask: 4, templateShare: 0.25 },
  rmEpochs: 6,
  bon: { tasks: 30, ns: [1, 2, 4, 8] },
  grpo: { steps: 4, tasksPerStep: 8, groupSize: 6, evalTasks: 30, evalSamples: 2, evalInterval: 2, seeds: 3, rewardShare: 0.5 },
};

/** Sizes that replace some of a run's, field by field within a stage (`{ collect: { tasks: 200 } }`). */
export type DemoSizesInput = { [Stage in keyof DemoSizes]?: DemoSizes[Stage] extends object ? Partial<DemoSizes[Stage]> : DemoSizes[Stage] };

/** `base` with the fields `sizes` gives replaced. */
export function mergeSizes(base: DemoSizes, sizes: DemoSizesInput = {}): DemoSizes {
  return {
    improve: { ...base.improve, ...sizes.improve },
    collect: { ...base.collect, ...sizes.collect },
    rmEpochs: sizes.rmEpochs ?? base.rmEpochs,
    bon: { ...base.bon, ...sizes.bon },
    grpo: { ...base.grpo, ...sizes.grpo },
  };
}
