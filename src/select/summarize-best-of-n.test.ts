import { describe, expect, it } from 'vitest';
import { parseBonConfig } from './bon-config.js';
import type { BestOfNRun, TaskOutcome } from './run-best-of-n.js';
import { comparisons, summarizeBestOfN } from './summarize-best-of-n.js';

function outcome(taskId: string, strategy: TaskOutcome['strategy'], correct: boolean, execution = 100): TaskOutcome {
  return { taskId, suite: taskId.startsWith('a') ? 'arith' : 'multihop', n: 2, strategy, correct, executions: 1, tokens: { orchestrator: 10, execution, verification: 5 } };
}

function run(seed: number): BestOfNRun {
  const outcomes: TaskOutcome[] = [];
  for (let task = 0; task < 40; task++) {
    const id = `${task % 2 === 0 ? 'a' : 'm'}${task}`;
    outcomes.push(outcome(id, 'single', task % 4 === 0));
    outcomes.push(outcome(id, 'rm', task % 4 === 0 || task % 3 === 0, 300));
  }
  return { config: parseBonConfig({ ns: [2], strategies: ['single', 'rm'], seed }), tasks: 40, outcomes, distinctExecutions: 0, requestedExecutions: 0 };
}

describe('summarizeBestOfN', () => {
  it('reports accuracy with a Wilson interval and mean tokens per task by role', () => {
    const [table] = summarizeBestOfN(run(1));
    expect(table!.tasks).toBe(40);
    expect(table!.strategies.single).toEqual({
      accuracy: 0.25,
      ci: [0.1419, 0.4019],
      tokens: { orchestrator: 10, execution: 100, verification: 5, total: 115 },
      executionsPerTask: 1,
    });
  });

  it('pairs on tasks: the difference is exact and its bootstrap interval is seeded', () => {
    const first = summarizeBestOfN(run(1))[0]!.paired['rm-vs-single']!;
    // rm is right on every task single is, plus the 10 tasks divisible by 3 but not by 4.
    expect(first.diff).toBe(0.25);
    expect(first.ci[0]).toBeGreaterThan(0);
    expect(first.ci[0]).toBeLessThan(first.diff);
    expect(summarizeBestOfN(run(1))[0]!.paired['rm-vs-single']).toEqual(first);
    // On 40 tasks the endpoints are multiples of 1/40, so another seed may land on the same ones: some of four do not.
    expect([2, 3, 4, 5].some((seed) => summarizeBestOfN(run(seed))[0]!.paired['rm-vs-single']!.ci.join() !== first.ci.join())).toBe(true);
  });

  it('draws the same resamples for every comparison at an N: strategies with the same outcomes get the same interval against a third', () => {
    const base = run(1);
    // rm-adaptive is right exactly where rm is; listed in another task order, and with other tokens.
    const twin = base.outcomes.filter((entry) => entry.strategy === 'rm').map((entry) => ({ ...entry, strategy: 'rm-adaptive' as const, executions: 3 })).reverse();
    const [table] = summarizeBestOfN({ ...base, config: parseBonConfig({ ns: [2], strategies: ['single', 'rm', 'rm-adaptive'], seed: 1 }), outcomes: [...base.outcomes, ...twin] });
    expect(table!.paired['rm-adaptive-vs-single']).toEqual(table!.paired['rm-vs-single']);
  });

  it('filters by suite', () => {
    const [table] = summarizeBestOfN(run(1), { suite: 'arith' });
    expect(table!.tasks).toBe(20);
    expect(table!.strategies.single!.accuracy).toBe(0.5);
  });

  it('compares every strategy with single, rm with the baselines, rm voters with majority', () => {
    expect(comparisons(['single', 'rm', 'rm-adaptive', 'majority', 'oracle'])).toEqual([
      ['rm', 'single'],
      ['rm-adaptive', 'single'],
      ['majority', 'single'],
      ['oracle', 'single'],
      ['rm', 'majority'],
      ['rm', 'oracle'],
      ['rm-adaptive', 'majority'],
    ]);
  });
});

describe('best fixed plans', () => {
  /**
   * 20 tasks, alternately arith and multihop: `fixed:reflexion` is right on every arith task,
   * `fixed:search` on every multihop one, each on half of the other family; `rm+templates` is
   * always right, and `single`, when asked for, never.
   */
  const twoTemplateOutcomes = (withSingle: boolean): TaskOutcome[] =>
    Array.from({ length: 20 }, (_, task) => {
      const id = `${task % 2 === 0 ? 'a' : 'm'}${task}`;
      const arith = id.startsWith('a');
      return [
        outcome(id, 'fixed:reflexion', arith || task % 4 === 1),
        outcome(id, 'fixed:search', !arith || task % 4 === 0),
        outcome(id, 'rm+templates', true),
        ...(withSingle ? [outcome(id, 'single', false)] : []),
      ];
    }).flat();

  it('picks the best template overall and per family after the fact, and compares rm+templates with them', () => {
    const outcomes = twoTemplateOutcomes(true);
    const [table] = summarizeBestOfN({ config: parseBonConfig({ ns: [2], seed: 1, pool: 'sampled+templates' }), tasks: 20, outcomes, distinctExecutions: 0, requestedExecutions: 0 });
    expect(table!.bestFixed).toEqual({ overall: 'reflexion', perSuite: { arith: 'reflexion', multihop: 'search' } });
    // Both templates are right on 15 of 20 tasks; the tie goes to the first by name.
    expect(table!.strategies['best-fixed']?.accuracy).toBe(0.75);
    expect(table!.strategies['best-fixed-per-family']?.accuracy).toBe(1);
    expect(table!.paired['rm+templates-vs-best-fixed-per-family']).toEqual({ diff: 0, ci: [0, 0] });
    expect(table!.paired['rm+templates-vs-best-fixed']?.diff).toBe(0.25);
    expect(Object.keys(table!.strategies)).toEqual(['single', 'rm+templates', 'best-fixed', 'best-fixed-per-family', 'fixed:reflexion', 'fixed:search']);
    const [arith] = summarizeBestOfN({ config: parseBonConfig({ ns: [2], seed: 1, pool: 'sampled+templates' }), tasks: 20, outcomes, distinctExecutions: 0, requestedExecutions: 0 }, { suite: 'arith' });
    expect(arith!.bestFixed?.overall).toBe('reflexion');
    expect(arith!.strategies['best-fixed']?.accuracy).toBe(1);
  });

  it('runs the fixed plan per family chosen on the training data beside the one chosen after the fact, and measures what the choice after the fact gains', () => {
    const outcomes = twoTemplateOutcomes(false);
    const config = parseBonConfig({ ns: [2], seed: 1, pool: 'sampled+templates' });
    // Training said reflexion for both families: right on every arith task, on half the multihop ones.
    const [table] = summarizeBestOfN({ config, tasks: 20, outcomes, distinctExecutions: 0, requestedExecutions: 0, fixedFromTraining: { arith: 'reflexion', multihop: 'reflexion' } });
    expect(table!.bestFixed).toEqual({ overall: 'reflexion', perSuite: { arith: 'reflexion', multihop: 'search' }, perSuiteFromTraining: { arith: 'reflexion', multihop: 'reflexion' } });
    expect(table!.strategies['train-best-fixed-per-family']?.accuracy).toBe(0.75);
    expect(table!.paired['best-fixed-per-family-vs-train-best-fixed-per-family']?.diff).toBe(0.25);
    expect(table!.paired['rm+templates-vs-train-best-fixed-per-family']?.diff).toBe(0.25);
    expect(Object.keys(table!.strategies).slice(1, 4)).toEqual(['best-fixed', 'best-fixed-per-family', 'train-best-fixed-per-family']);
    // On one family's tasks the row follows that family's choice.
    const [multihop] = summarizeBestOfN({ config, tasks: 20, outcomes, distinctExecutions: 0, requestedExecutions: 0, fixedFromTraining: { arith: 'reflexion', multihop: 'reflexion' } }, { suite: 'multihop' });
    expect(multihop!.strategies['train-best-fixed-per-family']?.accuracy).toBe(0.5);
    // A choice naming a template that did not run, or missing a family, gives no row rather than a partial one.
    const partialChoices: Record<string, string>[] = [{ arith: 'reflexion', multihop: 'debate' }, { arith: 'reflexion' }];
    for (const fixedFromTraining of partialChoices) {
      const [partial] = summarizeBestOfN({ config, tasks: 20, outcomes, distinctExecutions: 0, requestedExecutions: 0, fixedFromTraining });
      expect(partial!.strategies['train-best-fixed-per-family']).toBeUndefined();
      expect(partial!.bestFixed?.perSuiteFromTraining).toBeUndefined();
    }
  });
});
