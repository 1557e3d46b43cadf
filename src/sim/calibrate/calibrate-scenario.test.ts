import { describe, expect, it } from 'vitest';
import { createSimEnvironment } from '../environment.js';
import { loadScenario } from '../scenario/load-scenario.js';
import { ScenarioSchema } from '../scenario/scenario-schema.js';
import { calibrateScenario } from './calibrate-scenario.js';
import { FIXED_PLAN_KINDS } from './fixed-plan-kinds.js';

describe('calibrateScenario within-family buckets (issue 21)', () => {
  it('buckets each generated family by its structure axis and gives every kind its accuracy per bucket', async () => {
    const report = await calibrateScenario(await createSimEnvironment(loadScenario('default')), { tasks: 16, plansPerTask: 1 });
    expect(Object.keys(report.withinFamily).sort()).toEqual(['arith', 'multihop']);
    const values = { arith: ['chain', 'note', 'split'], multihop: ['chain', 'famous'] } as const;
    for (const [family, entry] of Object.entries(report.withinFamily)) {
      expect(entry.axis).toBe('structure');
      for (const bucket of entry.buckets) {
        expect(values[family as keyof typeof values]).toContain(bucket.value);
        expect(Object.keys(bucket.kindAccuracy)).toEqual(FIXED_PLAN_KINDS.map((kind) => kind.name));
        expect(bucket.accuracy).toBe(Math.max(...Object.values(bucket.kindAccuracy)));
        expect(bucket.kindAccuracy[entry.familyBest.kind]).toBe(bucket.familyBestAccuracy);
      }
      expect(entry.buckets.reduce((sum, bucket) => sum + bucket.tasks, 0)).toBe(report.tasksPerFamily[family]);
    }
    // One execution per kind leaves nothing to judge a router on.
    expect(report.routingBound).toBeUndefined();
  }, 120_000);

  it('on control every kind solves the same tasks, since a failed hop never lands on the answer by chance', async () => {
    const accuracies = async (failuresAvoidAnswer: boolean) => {
      const control = loadScenario('control');
      const scenario = ScenarioSchema.parse({ ...control, families: { ...control.families, multihop: { ...control.families.multihop, failuresAvoidAnswer } } });
      const report = await calibrateScenario(await createSimEnvironment(scenario), { tasks: 60, plansPerTask: 1 });
      return Object.values(report.withinFamily).flatMap((entry) => entry.buckets.map((bucket) => new Set(Object.values(bucket.kindAccuracy)).size));
    };
    // One accuracy per bucket: every kind ties everywhere.
    expect(new Set(await accuracies(true))).toEqual(new Set([1]));
    // Without the rule, search's documents name the answer and a failed hop can land on it (docs/sim.md §10).
    expect(Math.max(...(await accuracies(false)))).toBeGreaterThan(1);
  }, 120_000);

  it('bounds what routing by the family, the task type and size, or the task could save, judged on other executions than it estimates from', async () => {
    const report = await calibrateScenario(await createSimEnvironment(loadScenario('default')), { tasks: 24, plansPerTask: 1, executionsPerKind: 2 });
    const bound = report.routingBound!;
    expect([bound.estimateExecutions, bound.judgeExecutions]).toEqual([1, 1]);
    expect(bound.routers.map(({ knows }) => knows)).toEqual(['family', 'task type', 'task type and size', 'task']);
    // A point, where a router has one, reaches best-fixed-per-family's accuracy on the judging executions.
    for (const { point } of bound.routers) if (point !== null) expect(point.accuracy).toBeGreaterThanOrEqual(bound.bestFixedPerFamily.accuracy);
    expect(Object.keys(bound.bestFixedPerFamily.kinds).sort()).toEqual(['arith', 'multihop']);
  }, 120_000);
});
