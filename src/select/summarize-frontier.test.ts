import { describe, expect, it } from 'vitest';
import { parseBonConfig } from './bon-config.js';
import type { BestOfNRun, FrontierOutcome, TaskOutcome } from './run-best-of-n.js';
import { summarizeFrontier, taskBlindMix } from './summarize-frontier.js';

const TASKS = Array.from({ length: 10 }, (_, index) => `t${index}`);
const correctOn = (count: number) => (index: number) => index < count;

function fixedOutcomes(name: string, correct: (index: number) => boolean, execution: number): TaskOutcome[] {
  return TASKS.map((taskId, index) => ({ taskId, suite: 'arith', n: 8, strategy: `fixed:${name}`, correct: correct(index), executions: 1, tokens: { orchestrator: 0, execution, verification: 0 } }));
}

function pointOutcomes(point: number, correct: (index: number) => boolean, execution: number): FrontierOutcome[] {
  return TASKS.map((taskId, index) => ({ taskId, suite: 'arith', n: 8, point, correct: correct(index), executions: 1, tokens: { orchestrator: 300, execution, verification: 1000 } }));
}

/** Fixed plans cheap (2 of 10 right, 1,000 tokens) and strong (8 of 10, 10,000); three operating points of rm+templates. */
function run(): BestOfNRun {
  const config = parseBonConfig({ ns: [8], pool: 'sampled+templates', frontier: true, frontierPrices: [1e-5, 1e-4], frontierMargins: [], seed: 3 });
  return {
    config,
    tasks: TASKS.length,
    outcomes: [...fixedOutcomes('cheap', correctOn(2), 1000), ...fixedOutcomes('strong', correctOn(8), 10_000), ...TASKS.map((taskId, index): TaskOutcome => ({ taskId, suite: 'arith', n: 8, strategy: 'oracle', correct: index < 9, executions: 8, tokens: { orchestrator: 300, execution: 80_000, verification: 0 } }))],
    distinctExecutions: 0,
    requestedExecutions: 0,
    frontier: {
      n: 8,
      objectives: [{ kind: 'accuracy' }, { kind: 'price', pricePerToken: 1e-5 }, { kind: 'price', pricePerToken: 1e-4 }],
      outcomes: [...pointOutcomes(0, correctOn(8), 11_000), ...pointOutcomes(1, correctOn(8), 4000), ...pointOutcomes(2, correctOn(1), 500)],
    },
  };
}

describe('summarizeFrontier', () => {
  it('places every operating point against the fixed plans and finds the cheapest that matches best-fixed-per-family', () => {
    const frontier = summarizeFrontier(run())!;
    expect(frontier.points.map((point) => [point.label, point.accuracy, point.tokens.executionPlusVerification, point.tokens.total])).toEqual([
      ['accuracy', 0.8, 12_000, 12_300],
      ['price=0.00001', 0.8, 5000, 5300],
      ['price=0.0001', 0.1, 1500, 1800],
    ]);
    expect(frontier.bestFixedPerFamily).toMatchObject({ perSuite: { arith: 'strong' }, accuracy: 0.8, tokens: { executionPlusVerification: 10_000 } });
    expect(frontier.bestFixed.name).toBe('strong');
    expect(frontier.oracle).toMatchObject({ accuracy: 0.9, tokens: { executionPlusVerification: 80_000 } });
    // The price=0.00001 point matches best-fixed-per-family on every task at half its tokens.
    expect(frontier.points[1]!.versusBestFixedPerFamily).toEqual({ diff: 0, ci: [0, 0] });
    expect(frontier).toMatchObject({ tokensAtBestFixedAccuracy: 5000, pointAtBestFixedAccuracy: 'price=0.00001', shareOfBestFixedPerFamilyTokens: 0.5 });
    // The cheap fixed plan is more accurate (0.2 > 0.1) and cheaper (1,000 < 1,500) than the last point.
    expect(frontier.points.map((point) => point.dominatedBy)).toEqual([[], [], ['cheap']]);
    expect(frontier.undominated).toBe(false);
    // No fixed plan but strong itself matches strong: the saving a fixed plan alone gives is none.
    expect(frontier.cheapestFixedAtBestFixedAccuracy).toMatchObject({ name: 'strong', executionPlusVerification: 10_000 });
  });

  it('finds the cheapest fixed plan per family as accurate as best-fixed-per-family on every family, which no single fixed plan matches', () => {
    // On a second suite, qa, cheap (1,000 tokens) is as right as strong (10,000): both 8 of 10. On arith strong stays the only one at 8.
    const twoSuites = run();
    const qa = (name: string, execution: number): TaskOutcome[] => TASKS.map((taskId, index) => ({ taskId: `qa-${taskId}`, suite: 'qa', n: 8, strategy: `fixed:${name}`, correct: index < 8, executions: 1, tokens: { orchestrator: 0, execution, verification: 0 } }));
    twoSuites.outcomes.push(...qa('cheap', 1000), ...qa('strong', 10_000), ...TASKS.map((taskId): TaskOutcome => ({ taskId: `qa-${taskId}`, suite: 'qa', n: 8, strategy: 'oracle', correct: true, executions: 8, tokens: { orchestrator: 0, execution: 80_000, verification: 0 } })));
    twoSuites.frontier!.outcomes.push(...twoSuites.frontier!.outcomes.map((outcome) => ({ ...outcome, taskId: `qa-${outcome.taskId}`, suite: 'qa' })));
    twoSuites.tasks = 20;
    const frontier = summarizeFrontier(twoSuites)!;
    // best-fixed-per-family is 80% on both suites, whichever of the tied plans it took on qa.
    expect(frontier.bestFixedPerFamily.accuracy).toBe(0.8);
    expect(frontier.cheapestFixedPerFamilyAtBestFixedAccuracy).toMatchObject({ perSuite: { arith: 'strong', qa: 'cheap' }, executionPlusVerification: 5500, versusBestFixedPerFamily: { diff: 0, ci: [0, 0] } });
    // A single fixed plan matches only with strong everywhere.
    expect(frontier.cheapestFixedAtBestFixedAccuracy).toMatchObject({ name: 'strong', executionPlusVerification: 10_000 });
  });

  it('says null when no operating point reaches best-fixed-per-family', () => {
    const weak = run();
    weak.frontier!.outcomes = weak.frontier!.outcomes.map((outcome) => ({ ...outcome, correct: Number(outcome.taskId.slice(1)) < 3 }));
    expect(summarizeFrontier(weak)).toMatchObject({ tokensAtBestFixedAccuracy: null, pointAtBestFixedAccuracy: null, shareOfBestFixedPerFamilyTokens: null });
  });

  it("draws the template router's frontier from its own outcomes, and none where it was not swept on every task", () => {
    const both = run();
    // The router alone, at the same three objectives: as accurate as strong at a tenth of its tokens, then cheaper and worse.
    const routed = (point: number, correct: (index: number) => boolean, execution: number) => pointOutcomes(point, correct, execution).map((outcome) => ({ ...outcome, strategy: 'rm-templates-only' as const, tokens: { ...outcome.tokens, verification: 20 } }));
    both.frontier!.outcomes.push(...routed(0, correctOn(8), 9000), ...routed(1, correctOn(8), 980), ...routed(2, correctOn(2), 480));
    const router = summarizeFrontier(both, 'rm-templates-only')!;
    expect(router.strategy).toBe('rm-templates-only');
    expect(router.points.map((point) => point.tokens.executionPlusVerification)).toEqual([9020, 1000, 500]);
    expect(router).toMatchObject({ tokensAtBestFixedAccuracy: 1000, pointAtBestFixedAccuracy: 'price=0.00001', shareOfBestFixedPerFamilyTokens: 0.1, undominated: true });
    // rm+templates' frontier is the one it was before the router's outcomes were added.
    expect(summarizeFrontier(both)).toEqual(summarizeFrontier(run()));
    // Without the router's outcomes, or with a task missing (a run resumed from one that did not sweep it), no router frontier.
    expect(summarizeFrontier(run(), 'rm-templates-only')).toBeUndefined();
    both.frontier!.outcomes = both.frontier!.outcomes.filter((outcome) => !(outcome.strategy === 'rm-templates-only' && outcome.taskId === 't0'));
    expect(summarizeFrontier(both, 'rm-templates-only')).toBeUndefined();
  });

  it('weighs the matching point against the best task-blind mix of fixed plans at its tokens', () => {
    const frontier = summarizeFrontier(run())!;
    // At 5,000 tokens a random 4/9 of tasks go to strong (10,000) and 5/9 to cheap (1,000): 0.2 + 0.6 x 4/9.
    expect(frontier.taskBlindMixAtBestFixedAccuracy).toMatchObject({ perSuite: { arith: { cheap: 0.5556, strong: 0.4444 } }, accuracy: 0.4667, executionPlusVerification: 5000 });
    // Right on t0-t7 where the mix expects 1, 1 and 4/9 six times: +1/3, every resample above 0 (reading the task paid).
    const { diff, ci } = frontier.taskBlindMixAtBestFixedAccuracy!.pointMinusMix;
    expect(diff).toBeCloseTo(0.3333, 4);
    expect(ci[0]).toBeGreaterThan(0);
    // No point matches: nothing to weigh.
    const weak = run();
    weak.frontier!.outcomes = weak.frontier!.outcomes.map((outcome) => ({ ...outcome, correct: Number(outcome.taskId.slice(1)) < 3 }));
    expect(summarizeFrontier(weak)!.taskBlindMixAtBestFixedAccuracy).toBeNull();
  });

  it('mixes along each family\'s upper hull, buying the steepest step first and the last in part', () => {
    const tasks = (suite: string) => Array.from({ length: 10 }, (_, index) => `${suite}-${index}`);
    const plan = (name: string, spec: Record<string, [right: number, execution: number]>) => ({
      name,
      outcomes: Object.entries(spec).flatMap(([suite, [right, execution]]) =>
        tasks(suite).map((taskId, index): TaskOutcome => ({ taskId, suite, n: 8, strategy: `fixed:${name}`, correct: index < right, executions: 1, tokens: { orchestrator: 0, execution, verification: 0 } })),
      ),
    });
    // arith: cheap 2 right at 1,000, mid 3 at 3,000 (under the line from cheap to strong: never mixed), strong 8 at 10,000.
    // qa: cheap 5 right at 1,000, strong 6 at 10,000: a step of 1/90,000 per token against arith's 6/90,000.
    const fixed = [plan('cheap', { arith: [2, 1000], qa: [5, 1000] }), plan('mid', { arith: [3, 3000], qa: [0, 3000] }), plan('strong', { arith: [8, 10_000], qa: [6, 10_000] })];
    // 7,000 a task over 20 tasks: 120,000 above the cheap plans; arith's step costs 90,000 and is bought whole, then a third of qa's.
    const mix = taskBlindMix(fixed, 7000);
    expect(mix.perSuite).toEqual({ arith: { strong: 1 }, qa: { cheap: 0.6667, strong: 0.3333 } });
    expect(mix.executionPlusVerification).toBe(7000);
    expect(mix.scores.get('arith-7')).toBe(1);
    expect(mix.scores.get('qa-5')).toBeCloseTo(1 / 3, 6);
    expect(mix.scores.get('qa-4')).toBe(1);
    // Below the cheapest plans' cost the mix is theirs, and says what it spends.
    expect(taskBlindMix(fixed, 500)).toMatchObject({ perSuite: { arith: { cheap: 1 }, qa: { cheap: 1 } }, executionPlusVerification: 1000 });
  });

  it('is undefined for a run without the sweep', () => {
    const { frontier: _frontier, ...plain } = run();
    expect(summarizeFrontier(plain)).toBeUndefined();
  });
});
