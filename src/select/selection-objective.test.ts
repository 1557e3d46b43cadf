import { describe, expect, it } from 'vitest';
import { createBlockRegistry } from '../agents/index.js';
import { EPISODE_SCHEMA_VERSION, type Episode } from '../core/episode.js';
import { UserError } from '../core/errors.js';
import type { CostAwareRewardModel, PlanEstimate, RewardModel } from '../core/reward-model.js';
import type { Task } from '../core/task.js';
import type { Usage } from '../core/usage.js';
import { createScriptedProvider } from '../testing/index.js';
import { CandidatePool } from './candidate-pool.js';
import { chooseByObjective, type SelectionObjective } from './selection-objective.js';
import type { StrategyName } from './selection-strategy.js';
import { STRATEGIES } from './strategies/index.js';

const task: Task = { id: 't1', suite: 'arith', question: 'What is 6 times 7?', answer: '42', metadata: {} };
const catalog = createBlockRegistry();
const usage = (totalTokens: number): Usage => ({ promptTokens: totalTokens, completionTokens: 0, totalTokens });
const PLAN = (agent: string, params: Record<string, unknown> = {}) => JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent, input: '', params }], edges: [], answer: 'A' });

function episode(index: number, executionTokens: number): Episode {
  return {
    schemaVersion: EPISODE_SCHEMA_VERSION,
    id: `ep${index}`,
    task,
    orchestrator: { name: 'test' },
    sampleIndex: index,
    planText: '',
    planFormat: 'json',
    diagnostics: [],
    warnings: [],
    nodes: [],
    finalAnswer: '42',
    grade: { correct: true, method: 'normalized_exact_match' },
    usage: { orchestrator: usage(0), execution: usage(executionTokens), verification: usage(0) },
    wallTimeMs: 0,
    status: 'ok',
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

describe('chooseByObjective', () => {
  const estimates: PlanEstimate[] = [
    { successProbability: 0.72, executionTokens: 30_000 },
    { successProbability: 0.5, executionTokens: 1_000 },
    { successProbability: 0.7, executionTokens: 10_000 },
  ];
  it.each<[SelectionObjective, number]>([
    [{ kind: 'accuracy' }, 0],
    // Values 0.72, 0.5, 0.7: the most likely to succeed.
    [{ kind: 'price', pricePerToken: 0 }, 0],
    // 0.72 - 0.3, 0.5 - 0.01, 0.7 - 0.1.
    [{ kind: 'price', pricePerToken: 1e-5 }, 2],
    // 0.72 - 3, 0.5 - 0.1, 0.7 - 1.
    [{ kind: 'price', pricePerToken: 1e-4 }, 1],
    // Within 0.05 of 0.72: candidates 0 and 2; 2 is cheaper.
    [{ kind: 'cheapest-within', margin: 0.05 }, 2],
    [{ kind: 'cheapest-within', margin: 0.3 }, 1],
    [{ kind: 'cheapest-within', margin: 0 }, 0],
  ])('%j picks candidate %i', (objective, expected) => {
    expect(chooseByObjective([0, 1, 2], estimates, objective)).toBe(expected);
  });

  it('gives ties to the first eligible candidate (the accuracy pick)', () => {
    const equal = [{ successProbability: 0.5, executionTokens: 100 }, { successProbability: 0.5, executionTokens: 100 }];
    expect(chooseByObjective([1, 0], equal, { kind: 'price', pricePerToken: 1e-3 })).toBe(1);
    expect(chooseByObjective([1, 0], equal, { kind: 'cheapest-within', margin: 0.1 })).toBe(1);
  });
});

describe('the cost objectives in rm, rm+templates and rm-templates-only', () => {
  // Pool: sample 0 (sc-7, scored highest, 30k tokens), sample 1 (debate, 60k); templates cot (2, cheap) and reflexion-3 (3).
  const TEMPLATES = [
    { name: 'cot', planText: PLAN('cot'), orchestratorUsage: usage(0) },
    { name: 'reflexion-3', planText: PLAN('reflexion', { maxRounds: 3 }), orchestratorUsage: usage(0) },
  ];
  const planTexts = [PLAN('sc', { samples: 7 }), PLAN('debate')];
  const scores = [3, 1, 0, 1];
  const estimates: PlanEstimate[] = [
    { successProbability: 0.72, executionTokens: 30_000 },
    { successProbability: 0.6, executionTokens: 60_000 },
    { successProbability: 0.5, executionTokens: 1_000 },
    { successProbability: 0.7, executionTokens: 10_000 },
  ];
  const costAware: CostAwareRewardModel = { name: 'cost-aware', canEstimate: true, score: async () => scores, estimate: async () => estimates };

  function run(name: StrategyName, objective: SelectionObjective, rewardModel: RewardModel = costAware) {
    const pool = new CandidatePool({
      task,
      planTexts,
      templates: TEMPLATES,
      orchestratorUsage: planTexts.map(() => usage(100)),
      executePlan: async (index) => episode(index, estimates[index]!.executionTokens),
      rewardModel,
      judge: createScriptedProvider([]),
      catalog,
    });
    return STRATEGIES[name].select(pool.contextFor(2, objective));
  }

  it('rm+templates: accuracy keeps the sample that beats the best template; price and margin trade it for cheaper templates', async () => {
    expect((await run('rm+templates', { kind: 'accuracy' })).chosen).toBe(0);
    expect((await run('rm+templates', { kind: 'price', pricePerToken: 0 })).chosen).toBe(0);
    expect((await run('rm+templates', { kind: 'price', pricePerToken: 1e-5 })).chosen).toBe(3);
    expect((await run('rm+templates', { kind: 'price', pricePerToken: 1e-4 })).chosen).toBe(2);
    expect((await run('rm+templates', { kind: 'cheapest-within', margin: 0.05 })).chosen).toBe(3);
    expect((await run('rm+templates', { kind: 'cheapest-within', margin: 0.3 })).chosen).toBe(2);
  });

  it('rm+templates never takes a sample that did not beat the best template by the margin, whatever the objective', async () => {
    // Sample 1 (score 1, not above reflexion-3's 1) made the best and cheapest by its estimate: it would win any objective if eligible.
    const tempting = estimates.map((estimate, index) => (index === 1 ? { successProbability: 0.9, executionTokens: 10 } : estimate));
    const model: CostAwareRewardModel = { ...costAware, estimate: async () => tempting };
    for (const objective of [{ kind: 'price', pricePerToken: 1e-5 }, { kind: 'cheapest-within', margin: 0.3 }] as const) {
      expect((await run('rm+templates', objective, model)).chosen).not.toBe(1);
      expect((await run('rm', objective, model)).chosen).toBe(1);
    }
  });

  it('rm chooses among the samples and rm-templates-only among the templates', async () => {
    expect((await run('rm', { kind: 'accuracy' })).chosen).toBe(0);
    // Samples only: 0.72 - 0.3 against 0.6 - 0.6.
    expect((await run('rm', { kind: 'price', pricePerToken: 1e-5 })).chosen).toBe(0);
    expect((await run('rm', { kind: 'cheapest-within', margin: 0.2 })).chosen).toBe(0);
    expect((await run('rm-templates-only', { kind: 'accuracy' })).chosen).toBe(3);
    expect((await run('rm-templates-only', { kind: 'price', pricePerToken: 1e-4 })).chosen).toBe(2);
  });

  it('refuses a cost objective with a model that cannot estimate, and says what to do', async () => {
    const plain: RewardModel = { name: 'plain', score: async () => scores };
    await expect(run('rm+templates', { kind: 'price', pricePerToken: 1e-5 }, plain)).rejects.toThrow(UserError);
    await expect(run('rm+templates', { kind: 'price', pricePerToken: 1e-5 }, plain)).rejects.toThrow(/need a reward model with a cost head and a calibration, and plain has none: train one with orchrm rm train/);
    expect((await run('rm+templates', { kind: 'accuracy' }, plain)).chosen).toBe(0);
  });
});
