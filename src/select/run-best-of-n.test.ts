import { describe, expect, it } from 'vitest';
import { createBlockRegistry } from '../agents/index.js';
import type { RewardModel } from '../core/reward-model.js';
import { createLlmOrchestrator } from '../orchestrator/index.js';
import { createSimEnvironment, generateScenarioTasks, loadScenario } from '../sim/index.js';
import { exactMatchGrader } from '../tasks/index.js';
import { runBestOfN } from './run-best-of-n.js';

/** Prefers shorter plan texts: a stand-in reward model with real, varied scores. */
const shortest: RewardModel = { name: 'shortest', score: async (_task, plans) => plans.map((plan) => -String(plan).length) };

async function experiment(seed: number, concurrency = 3) {
  const scenario = loadScenario('arith');
  const environment = await createSimEnvironment(scenario);
  const blocks = createBlockRegistry();
  const orchestrator = createLlmOrchestrator({ provider: environment.provider, catalog: blocks, model: 'sim-orchestrator-base' });
  return runBestOfN({
    tasks: generateScenarioTasks(scenario, environment.families, { split: 'test', count: 5 }),
    orchestrator,
    provider: environment.provider,
    judge: environment.provider,
    blocks,
    retriever: environment.retriever,
    grader: exactMatchGrader,
    rewardModel: shortest,
    config: { ns: [1, 2, 4], seed, concurrency },
  });
}

describe('runBestOfN over the simulated environment', () => {
  it('runs every strategy at every N, executing each sampled plan at most once', async () => {
    const run = await experiment(4);
    expect(run.outcomes).toHaveLength(5 * 3 * 8);
    expect(run.distinctExecutions).toBeLessThanOrEqual(5 * 4);
    expect(run.requestedExecutions).toBeGreaterThan(run.distinctExecutions);
    for (const outcome of run.outcomes.filter((entry) => entry.strategy === 'single')) expect(outcome.executions).toBe(1);
    // At N = 1 every selection strategy is `single`.
    const atOne = run.outcomes.filter((entry) => entry.n === 1 && entry.strategy !== 'oracle');
    for (const outcome of atOne) {
      const single = atOne.find((entry) => entry.taskId === outcome.taskId && entry.strategy === 'single')!;
      expect(outcome.correct).toBe(single.correct);
      expect(outcome.tokens).toEqual(single.tokens);
    }
  });

  it('is deterministic in the seed whatever the concurrency', async () => {
    expect((await experiment(4, 1)).outcomes).toEqual((await experiment(4, 3)).outcomes);
  });
});
