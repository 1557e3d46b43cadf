import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../core/index.js';
import { createSimEnvironment, loadScenario } from '../sim/index.js';
import { GrpoEvaluationSchema, runGrpo, RunGrpoSettingsSchema } from './run-grpo.js';

describe('RunGrpoSettingsSchema', () => {
  it('fills the defaults runGrpo trains with', () => {
    expect(RunGrpoSettingsSchema.parse({ reward: 'execution' })).toEqual({
      reward: 'execution',
      executedFraction: 0.1,
      trainTaskOffset: 0,
      evaluation: { tasks: 100, samplesPerTask: 4, seed: 0 },
    });
    expect(RunGrpoSettingsSchema.parse({ reward: 'rm', evaluation: false }).evaluation).toBe(false);
    expect(GrpoEvaluationSchema.parse({ tasks: 5 })).toEqual({ tasks: 5, samplesPerTask: 4, seed: 0 });
  });

  it('refuses a setting out of its range', () => {
    expect(RunGrpoSettingsSchema.safeParse({ reward: 'hybrid', executedFraction: 1.5 }).success).toBe(false);
    expect(RunGrpoSettingsSchema.safeParse({ reward: 'execution', trainTaskOffset: -1 }).success).toBe(false);
    expect(RunGrpoSettingsSchema.safeParse({ reward: 'execution', evaluation: { tasks: 0 } }).success).toBe(false);
    expect(RunGrpoSettingsSchema.safeParse({ reward: 'sometimes' }).success).toBe(false);
  });

  it('is checked by runGrpo before anything trains, naming the field', async () => {
    const environment = await createSimEnvironment(loadScenario('arith'));
    try {
      const refused = runGrpo(environment, { reward: 'hybrid', executedFraction: 2, config: { steps: 1 } });
      await expect(refused).rejects.toThrow(InvalidInputError);
      await expect(runGrpo(environment, { reward: 'hybrid', executedFraction: 2 })).rejects.toThrow(/GRPO run settings[\s\S]*executedFraction/);
    } finally {
      environment.close();
    }
  });
});
