import { describe, expect, it } from 'vitest';
import { type BoundExecution, routingBound } from './routing-bound.js';

/** `count` executions, `correct` of them right, each spending `tokens`. */
const runs = (count: number, correct: number, tokens: number): BoundExecution[] => Array.from({ length: count }, (_, index) => ({ correct: index % count < correct, executionTokens: tokens }));

describe('routingBound', () => {
  it('credits a router only with what it knows: the task type saves where the family cannot, and nothing is judged on the executions it estimated from', () => {
    // One family, two task types of 20 tasks each. `cheap` (100 tokens) is right on every easy task and on no hard one;
    // `dear` (1,000 tokens) is right on both. Best-fixed-per-family is `dear`: 100% at 1,000 tokens.
    const tasks = Array.from({ length: 40 }, (_, index) => ({ family: 'f', type: index < 20 ? 'easy' : 'hard' }));
    const executions = [tasks.map((task) => runs(4, task.type === 'easy' ? 4 : 0, 100)), tasks.map(() => runs(4, 4, 1000))];
    const bound = routingBound({ tasks, kinds: ['cheap', 'dear'], executions })!;
    expect(bound.estimateExecutions).toBe(2);
    expect(bound.judgeExecutions).toBe(2);
    expect(bound.bestFixedPerFamily).toEqual({ kinds: { f: 'dear' }, accuracy: 1, executionTokens: 1000 });
    const share = Object.fromEntries(bound.routers.map(({ knows, point }) => [knows, point?.share]));
    // Knowing the family, the cheapest plan that keeps 100% is dear on every task; knowing the type, cheap on easy tasks.
    expect(share.family).toBe(1);
    expect(share['task type']).toBeCloseTo(0.55, 10);
    expect(share['task type and size']).toBeCloseTo(0.55, 10);
    expect(share.task).toBeCloseTo(0.55, 10);
  });

  it('lets only the task router see what differs between tasks of one type, and only from other executions than those it is judged on', () => {
    // Cheap is right on the even tasks only: no type or size says which. Its first two executions say it, and so do the last two.
    const tasks = Array.from({ length: 40 }, () => ({ family: 'f', type: 't', size: 's' }));
    const executions = [tasks.map((_, index) => runs(4, index % 2 === 0 ? 4 : 0, 100)), tasks.map(() => runs(4, 4, 1000))];
    const shares = routingBound({ tasks, kinds: ['cheap', 'dear'], executions })!.routers.map(({ point }) => point?.share);
    expect(shares).toEqual([1, 1, 1, expect.closeTo(0.55, 10)]);
    // When a task's first executions mislead (cheap right on them, wrong on the judged ones), the task router takes cheap and never matches.
    const misleading = [tasks.map(() => [...runs(2, 2, 100), ...runs(2, 0, 100)]), tasks.map(() => runs(4, 4, 1000))];
    const task = routingBound({ tasks, kinds: ['cheap', 'dear'], executions: misleading })!.routers.find(({ knows }) => knows === 'task')!;
    expect(task.point).toBeNull();
  });

  it('says never where no price reaches the accuracy, and needs two executions per kind and task', () => {
    // Best-fixed-per-family is chosen on the judged executions: there `dear` is right, while its estimates say it is wrong.
    const tasks = Array.from({ length: 10 }, () => ({ family: 'f' }));
    const executions = [tasks.map(() => runs(2, 1, 100)), tasks.map(() => [...runs(1, 0, 1000), ...runs(1, 1, 1000)])];
    const bound = routingBound({ tasks, kinds: ['cheap', 'dear'], executions })!;
    expect(bound.routers.map(({ point }) => point)).toEqual([null, null, null, null]);
    expect(routingBound({ tasks, kinds: ['cheap', 'dear'], executions: [tasks.map(() => runs(1, 1, 1)), tasks.map(() => runs(1, 1, 1))] })).toBeUndefined();
  });
});
