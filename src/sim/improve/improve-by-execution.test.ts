import { describe, expect, it } from 'vitest';
import { createSimEnvironment } from '../environment.js';
import { baseCheckpoint } from '../policy/index.js';
import { loadScenario } from '../scenario/load-scenario.js';
import { evaluateCheckpointByExecution, improveByExecution } from './improve-by-execution.js';

describe('improveByExecution', () => {
  it('trains a checkpoint whose plans earn more reward than the base policy', async () => {
    const environment = await createSimEnvironment(loadScenario('default'));
    const options = { name: 'strong', rounds: 8, tasksPerRound: 48, samplesPerTask: 8, learningRate: 1, seed: 3 };
    const { checkpoint, rounds } = await improveByExecution(environment, baseCheckpoint(), options);
    expect(checkpoint).toMatchObject({ name: 'strong', step: 8 });
    expect(rounds.map((round) => round.round)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // Held-out test tasks, the same plans' seeds for both checkpoints.
    const before = await evaluateCheckpointByExecution(environment, baseCheckpoint(), { tasks: 80, samplesPerTask: 4 });
    const after = await evaluateCheckpointByExecution(environment, checkpoint, { tasks: 80, samplesPerTask: 4 });
    // Issue 21 made the best plan depend on the task inside each family, so a family-level policy gains less
    // (measured 0.241 -> 0.294, +5.3 points, against the old threshold of +5).
    expect(after.accuracy).toBeGreaterThan(before.accuracy + 0.03);
    const again = await improveByExecution(environment, baseCheckpoint(), options);
    expect(again.rounds).toEqual(rounds);
  }, 60_000);
});
