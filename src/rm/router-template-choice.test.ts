import { describe, expect, it } from 'vitest';
import type { Task } from '../core/index.js';
import type { PlanOutcome } from './cost-head.js';
import { chooseTemplatesByRouter } from './router-template-choice.js';
import { trainTemplateRouter } from './template-router.js';

const NAMES = ['a', 'b', 'c', 'd'];
const TASKS_PER_SUITE = 40;

/** A suite's tasks; the same words in every question, so the router tells them apart by suite alone. */
function tasksOf(suite: string): Task[] {
  return Array.from({ length: TASKS_PER_SUITE }, (_, index) => ({ id: `${suite}-${index}`, suite, question: `how many apples are left in basket ${index}?`, answer: '1', metadata: {} }));
}

/**
 * Graded template episodes: per suite, template and task, right when the task's index, shifted by
 * the template's place (so that templates are not right on the same tasks), falls under the rate.
 */
function outcomesOf(tasks: readonly Task[], rates: Record<string, number>, executionTokens: Record<string, number>): PlanOutcome[] {
  return tasks.flatMap((task, index) =>
    Object.entries(rates).map(([template, rate], place) => ({
      taskId: task.id,
      question: task.question,
      suite: task.suite!,
      planText: template,
      template,
      executionTokens: executionTokens[template]!,
      correct: (index + 7 * place) % 20 < rate * 20,
      split: 'train' as const,
    })),
  );
}

const sure = tasksOf('sure');
const close = tasksOf('close');
const tokens = { a: 100, b: 200, c: 300, d: 4000 };
// On `sure` a is far ahead; on `close` b is within a bootstrap's reach of a and c is not; d ran on 5 tasks only, too few to learn.
const outcomes = [
  ...outcomesOf(sure, { a: 0.9, b: 0.1, c: 0.1 }, tokens),
  ...outcomesOf(close, { a: 0.55, b: 0.5, c: 0.05 }, tokens),
  ...outcomesOf(sure.slice(0, 5), { d: 0.5 }, tokens),
];

describe('chooseTemplatesByRouter', () => {
  it('runs the router\'s first choice, every template it has not learnt, and only the challengers that may beat the first', () => {
    const { chosen, expectedExecutionTokens } = chooseTemplatesByRouter(outcomes, [sure[0]!, close[0]!], { names: NAMES, perTask: 4, seed: 3 });
    expect(chosen.get('sure-0')).toEqual([0, 3]);
    expect(chosen.get('close-0')).toEqual([0, 1, 3]);
    // The router prices the templates it learnt per task; d, which it did not learn, at its episodes' mean.
    const router = trainTemplateRouter(outcomes)!.router;
    const [a, b] = router.executionTokens(close[0]!.question, 'close', ['a', 'b']);
    expect(expectedExecutionTokens.get('close-0')).toBeCloseTo(a! + b! + 4000, 6);
  });

  it('keeps at most perTask templates, the unlearnt before the challengers', () => {
    const { chosen } = chooseTemplatesByRouter(outcomes, [close[1]!], { names: NAMES, perTask: 2, seed: 3 });
    expect(chosen.get('close-1')).toEqual([0, 3]);
  });

  it('draws templates in a seeded order on a suite the router has not seen, and chooses the same again', () => {
    const unseen: Task = { id: 'unseen-0', suite: 'unseen', question: 'how many pears?', answer: '2', metadata: {} };
    const first = chooseTemplatesByRouter(outcomes, [unseen], { names: NAMES, perTask: 2, seed: 3 });
    expect(first.chosen.get('unseen-0')).toHaveLength(2);
    expect(chooseTemplatesByRouter(outcomes, [unseen], { names: NAMES, perTask: 2, seed: 3 })).toEqual(first);
  });
});
