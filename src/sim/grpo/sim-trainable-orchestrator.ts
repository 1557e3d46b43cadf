import type { TrainableOrchestrator } from '../../environment/index.js';
import type { SimEnvironment } from '../environment.js';
import { evaluateCheckpointByExecution } from '../improve/improve-by-execution.js';
import { baseCheckpoint, checkpointFromFile, loadCheckpoint, saveCheckpoint, type PolicyCheckpoint, type PolicyWeights } from '../policy/index.js';
import { createSimTrainablePolicy, type SimAction } from './sim-trainable-policy.js';

/** The simulated orchestrator as the trainable orchestrator of its environment. */
export type SimTrainableOrchestrator = TrainableOrchestrator<PolicyCheckpoint, SimAction, PolicyWeights>;

/**
 * What GRPO trains in a simulated environment: the simulated orchestrator's policy from the
 * `base` checkpoint, checkpoint files (`loadCheckpoint`, `saveCheckpoint`), and held-out
 * accuracy through `evaluateCheckpointByExecution`: the first `tasks` test-split tasks,
 * `samplesPerTask` sampled plans each, executed and graded. Every checkpoint sees the same tasks
 * and the same sample seeds, so differences between checkpoints are not draw noise of the tasks.
 * Evaluation tokens are its execution tokens.
 */
export function createSimTrainableOrchestrator(environment: Omit<SimEnvironment, 'trainable'>): SimTrainableOrchestrator {
  return {
    policy: createSimTrainablePolicy(environment),
    initialCheckpoint: baseCheckpoint,
    loadCheckpoint,
    saveCheckpoint,
    parseCheckpoint: checkpointFromFile,
    async evaluate(checkpoint, options = {}) {
      const result = await evaluateCheckpointByExecution(environment, checkpoint, options);
      return { accuracy: result.accuracy, episodes: result.episodes, tokens: result.executionTokens };
    },
  };
}
