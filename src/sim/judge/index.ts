/**
 * The simulated judge models for the Best-of-N baselines (issue 6): a trajectory judge that
 * reads executed candidates and a plan judge that reads plans only. They answer the prompts of
 * the judge prompt codec (src/prompts/judge-prompts.ts, read with `readJudgePrompt`); src/sim/environment.ts routes judge prompts to them.
 */
export { createSimJudge, type SimJudgeOptions } from './create-sim-judge.js';
export { imaginedLogit, PlanSuccessEstimator, type PlanImagination } from './estimate-plan-success.js';
export { pickTrajectory, trajectoryPickRate } from './pick-trajectory.js';
