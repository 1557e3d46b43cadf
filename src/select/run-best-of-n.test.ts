import { describe, expect, it } from 'vitest';
import type { RewardModel } from '../core/reward-model.js';
import { createSimEnvironment, loadScenario } from '../sim/index.js';
import { GENERIC_TEMPLATES, genericPlanTemplates } from './plan-templates.js';
import { runBestOfN } from './run-best-of-n.js';

/** The generic cot template's plan text length (its score under `shortest`). */
const PLAN_TEXT_LENGTH = { cot: JSON.stringify(GENERIC_TEMPLATES[0]!.plan).length };

/** Prefers shorter plan texts: a stand-in reward model with real, varied scores. */
const shortest: RewardModel = { name: 'shortest', score: async (_task, plans) => plans.map((plan) => -String(plan).length) };

async function experiment(seed: number, concurrency = 3) {
  const environment = await createSimEnvironment(loadScenario('arith'));
  return runBestOfN({
    environment,
    tasks: environment.tasks('test', 5),
    orchestrator: environment.orchestrator('base'),
    rewardModel: shortest,
    config: { ns: [1, 2, 4], seed, concurrency },
  });
}

describe('runBestOfN over the simulated environment', () => {
  it('runs every strategy at every N, executing each sampled plan at most once', async () => {
    const run = await experiment(4);
    // Nine strategies (rm+templates and rm-templates-only need the template pool) at three N on five tasks.
    expect(run.outcomes).toHaveLength(5 * 3 * 9);
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

  it('with the template pool, runs each template on every task and lets rm+templates choose among them too', async () => {
    const environment = await createSimEnvironment(loadScenario('arith'));
    const run = await runBestOfN({
      environment,
      tasks: environment.tasks('test', 4),
      orchestrator: environment.orchestrator('base'),
      rewardModel: shortest,
      templates: genericPlanTemplates({ search: false }),
      config: { ns: [2], seed: 1, pool: 'sampled+templates', strategies: ['single', 'first-valid', 'rm', 'rm+templates'] },
    });
    const names = [...new Set(run.outcomes.map((outcome) => outcome.strategy))].sort();
    expect(names).toEqual(['first-valid', 'fixed:cot', 'fixed:debate-3x3', 'fixed:reflexion-3', 'fixed:sc-5', 'rm', 'rm+templates', 'single']);
    // The shortest text wins: a template ("cot" is the shortest JSON plan) beats the long sampled plans.
    for (const outcome of run.outcomes.filter((entry) => entry.strategy === 'rm+templates')) {
      const cot = run.outcomes.find((entry) => entry.taskId === outcome.taskId && entry.strategy === 'fixed:cot')!;
      expect(outcome.correct).toBe(cot.correct);
      expect(outcome.tokens.execution).toBe(cot.tokens.execution);
      // It read and scored 2 sampled plans and 4 templates; the sampled plans cost orchestrator tokens, the fixed templates none.
      expect(outcome.tokens.verification).toBeGreaterThan(0);
    }
    for (const outcome of run.outcomes.filter((entry) => entry.strategy.startsWith('fixed:'))) {
      expect(outcome.tokens.orchestrator).toBe(0);
      // A fixed plan's pick is its template, by name, at the pool index after the 2 samples.
      expect(outcome.pick).toMatchObject({ source: 'template', kind: outcome.strategy.slice('fixed:'.length) });
      expect(outcome.pick!.index).toBeGreaterThanOrEqual(2);
    }
    // Every pick is stored with its outcome: rm's are samples, with the score it ranked them by; rm+templates's here the cot template.
    for (const outcome of run.outcomes.filter((entry) => entry.strategy === 'rm')) {
      expect(outcome.pick).toMatchObject({ source: 'sample', score: expect.any(Number) });
      expect(outcome.pick!.kind).toMatch(/^(sample:|cot$|sc-5$|reflexion-3$|debate-3x3$)/);
    }
    for (const outcome of run.outcomes.filter((entry) => entry.strategy === 'rm+templates')) expect(outcome.pick).toEqual({ index: 2, source: 'template', kind: 'cot', score: -PLAN_TEXT_LENGTH.cot });
    // The suite's reference template: the one the model ranks first on the most of its tasks.
    expect(run.templateReferences).toEqual({ [environment.tasks('test', 1)[0]!.suite]: 'cot' });
    expect(run.outcomes.filter((entry) => entry.strategy === 'single').every((entry) => entry.pick?.index === 0 && entry.pick.score === undefined)).toBe(true);
    // An environment with no fixed plans of its own, and no templates given.
    const { templates: _simulatorTemplates, ...withoutTemplates } = environment;
    await expect(runBestOfN({ environment: withoutTemplates, tasks: [], config: { pool: 'sampled+templates' } })).rejects.toThrow(/needs template plans/);
    await expect(runBestOfN({ environment, tasks: [], config: { strategies: ['rm+templates'] } })).rejects.toThrow(/needs the template pool/);
  });

  it("keeps each suite's reference template unless the model's heads agree another is better", async () => {
    const environment = await createSimEnvironment(loadScenario('arith'));
    const tasks = environment.tasks('test', 4);
    // The model ranks sc-5 first on the first three tasks and reflexion-3 on the fourth; its two heads disagree about reflexion-3.
    const lean = (task: string, plans: readonly unknown[], head: number) => plans.map((plan) => (String(plan).includes('"reflexion"') ? (task === tasks[3]!.question ? 2 + head * 2 : 0) : String(plan).includes('"samples":5') ? 1 : 0));
    const rewardModel = {
      name: 'leaning',
      ensembleSize: 2,
      score: async (task: string, plans: readonly unknown[]) => lean(task, plans, 0.5),
      scoreMembers: async (task: string, plans: readonly unknown[]) => lean(task, plans, 0.5).map((_, index) => [lean(task, plans, -0.4)[index]!, lean(task, plans, 1.4)[index]!]),
    };
    const run = await runBestOfN({ environment, tasks, orchestrator: environment.orchestrator('base'), rewardModel, templates: genericPlanTemplates({ search: false }), config: { ns: [2], seed: 1, pool: 'sampled+templates', strategies: ['rm-templates-only'] } });
    expect(run.templateReferences).toEqual({ [tasks[0]!.suite]: 'sc-5' });
    // On the fourth task reflexion-3 scores 2 above sc-5, but its heads' differences (0.2 and 3.8) spread by 2.5: sc-5 is kept.
    expect(run.outcomes.filter((entry) => entry.strategy === 'rm-templates-only').map((entry) => entry.pick?.kind)).toEqual(['sc-5', 'sc-5', 'sc-5', 'sc-5']);
    // A model that answers with fewer scores than plans fails the run before any task, as it would in a task.
    const short = { name: 'short', score: async () => [1] };
    await expect(runBestOfN({ environment, tasks, orchestrator: environment.orchestrator('base'), rewardModel: short, templates: genericPlanTemplates({ search: false }), config: { ns: [2], seed: 1, pool: 'sampled+templates', strategies: ['rm+templates'] } })).rejects.toThrow(
      /reward model short returned 1 scores for 4 plans; it must return one score per plan/,
    );
  });

  it("chooses templates by the model's template router when it knows every template and suite, and by the reference rule otherwise", async () => {
    const environment = await createSimEnvironment(loadScenario('arith'));
    const tasks = environment.tasks('test', 4);
    const templates = genericPlanTemplates({ search: false });
    // The scores rank sc-5 first everywhere; the router rates debate-3x3 best on the first two tasks and cot on the others.
    const scores = (plans: readonly unknown[]) => plans.map((plan) => (String(plan).includes('"samples":5') ? 1 : 0));
    const routed = (known: readonly string[], suites = [tasks[0]!.suite]) => ({
      name: 'routing',
      score: async (_task: string, plans: readonly unknown[]) => scores(plans),
      routedTemplates: known,
      routedSuites: suites,
      routeTemplates: (task: string, suite: string, names: readonly string[]) => {
        expect(suite).toBe(tasks[0]!.suite);
        const favourite = tasks.findIndex((entry) => entry.question === task) < 2 ? 'debate-3x3' : 'cot';
        return names.map((name) => (known.includes(name) ? (name === favourite ? 0.9 : 0.2) : undefined));
      },
    });
    const config = { ns: [2], seed: 1, pool: 'sampled+templates' as const, strategies: ['rm-templates-only' as const] };
    const run = await runBestOfN({ environment, tasks, orchestrator: environment.orchestrator('base'), rewardModel: routed(templates.names), templates, config });
    expect(run.templateChoice).toBe('router');
    expect(run.templateReferences).toBeUndefined();
    const picks = (result: typeof run) => result.outcomes.filter((entry) => entry.strategy === 'rm-templates-only').map((entry) => entry.pick?.kind);
    expect(picks(run)).toEqual(['debate-3x3', 'debate-3x3', 'cot', 'cot']);
    // A router that lacks one of the library's templates is not used.
    const partial = await runBestOfN({ environment, tasks, orchestrator: environment.orchestrator('base'), rewardModel: routed(templates.names.slice(1)), templates, config });
    expect(partial.templateChoice).toBe('reference');
    expect(partial.templateReferences).toEqual({ [tasks[0]!.suite]: 'sc-5' });
    expect(picks(partial)).toEqual(['sc-5', 'sc-5', 'sc-5', 'sc-5']);
    // So is one that has seen no task of the tasks' suite (it would rate every template alike).
    const otherSuite = await runBestOfN({ environment, tasks, orchestrator: environment.orchestrator('base'), rewardModel: routed(templates.names, ['gsm8k']), templates, config });
    expect(otherSuite.templateChoice).toBe('reference');
    expect(picks(otherSuite)).toEqual(['sc-5', 'sc-5', 'sc-5', 'sc-5']);
    // Without a training record there is no fixed plan chosen on the training data; with one that covers the tasks' suite there is.
    expect(run.fixedFromTraining).toBeUndefined();
    const suite = tasks[0]!.suite;
    const withRecord = (record: Record<string, string>) => Object.assign(routed(templates.names), { bestTemplatesBySuite: () => record });
    const recorded = await runBestOfN({ environment, tasks, orchestrator: environment.orchestrator('base'), rewardModel: withRecord({ [suite]: 'cot' }), templates, config });
    expect(recorded.fixedFromTraining).toEqual({ [suite]: 'cot' });
    const elsewhere = await runBestOfN({ environment, tasks, orchestrator: environment.orchestrator('base'), rewardModel: withRecord({ gsm8k: 'cot' }), templates, config });
    expect(elsewhere.fixedFromTraining).toBeUndefined();
  });

  it('is deterministic in the seed whatever the concurrency', async () => {
    expect((await experiment(4, 1)).outcomes).toEqual((await experiment(4, 3)).outcomes);
  });
});
