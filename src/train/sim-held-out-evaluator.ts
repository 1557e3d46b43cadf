import type { SimEnvironment } from '../sim/index.js';
import { evaluateCheckpointByExecution } from '../sim/improve/index.js';
import type { PolicyCheckpoint } from '../sim/policy/index.js';
import type { HeldOutEvaluation } from './grpo-trainer.js';

export interface SimHeldOutOptions {
  /** Test-split tasks. @default 100 */
  tasks?: number;
  /** Plans sampled (temperature 1) and executed per task. @default 4 */
  samplesPerTask?: number;
  /** @default 0 */
  seed?: number;
}

/**
 * Held-out accuracy of simulated checkpoints through `evaluateCheckpointByExecution`: the first
 * `tasks` test-split tasks, `samplesPerTask` sampled plans each, executed and graded. Every
 * checkpoint sees the same tasks and the same sample seeds, so differences between checkpoints
 * are not draw noise of the tasks. Tokens are the evaluation's execution tokens.
 */
export function createSimHeldOutEvaluator(environment: SimEnvironment, options: SimHeldOutOptions = {}): (checkpoint: PolicyCheckpoint) => Promise<HeldOutEvaluation> {
  return async (checkpoint) => {
    const result = await evaluateCheckpointByExecution(environment, checkpoint, options);
    return { accuracy: result.accuracy, episodes: result.episodes, tokens: result.executionTokens };
  };
}
