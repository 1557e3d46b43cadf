import type { Grade, Task } from '../core/index.js';
import type { AnswerComparison } from './answer-comparison.js';
import { mathEquivalence } from './math-equivalence.js';
import { normalizeMathAnswer } from './normalize-math-answer.js';

/**
 * Compares a predicted math answer with a gold one: both normalised (`normalizeMathAnswer`),
 * then `mathEquivalence`. The method says how they matched (`math_string`, `math_numeric`,
 * `math_symbolic`) or is `math_equivalence` when they did not.
 *
 * @example
 * compareMathAnswers('\\frac{1}{2}', '$0.5$'); // { correct: true, method: 'math_numeric', normalizedGold: '\\frac{1}{2}', normalizedPred: '0.5' }
 */
export function compareMathAnswers(gold: string, predicted: string): AnswerComparison {
  const normalizedGold = normalizeMathAnswer(gold);
  const normalizedPred = normalizeMathAnswer(predicted);
  const kind = normalizedPred === '' ? undefined : mathEquivalence(normalizedGold, normalizedPred);
  return { correct: kind !== undefined, normalizedGold, normalizedPred, method: kind === undefined ? 'math_equivalence' : `math_${kind}` };
}

/**
 * The grader of math suites (MATH, GSM8K): correct when the answer is equivalent to the gold
 * answer or one of its aliases (`compareMathAnswers`). Ungraded without a gold answer.
 */
export function mathGrader(task: Task, answer: string): Grade | undefined {
  if (task.answer === undefined) return undefined;
  const golds = [task.answer, ...(task.answerAliases ?? [])];
  const comparisons = golds.map((gold) => compareMathAnswers(gold, answer));
  const match = comparisons.find((comparison) => comparison.correct) ?? comparisons[0]!;
  return { correct: match.correct, method: match.method };
}
