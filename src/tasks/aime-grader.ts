import type { Grade, Task } from '../core/index.js';
import type { AnswerComparison } from './answer-comparison.js';
import { normalizeMathAnswer } from './normalize-math-answer.js';

/** An integer, possibly with leading zeros or a zero fraction (`025`, `25.0`). */
const INTEGER = /^[+-]?\d+(?:\.0*)?$/;

/**
 * Compares AIME answers as integers: `025`, `25`, `\boxed{25}` and `25.0` are the same answer;
 * anything that is not an integer is wrong (AIME answers are integers 0-999).
 *
 * @example
 * compareAimeAnswers('25', '$\\boxed{025}$'); // { correct: true, normalizedGold: '25', normalizedPred: '25', method: 'aime_integer' }
 */
export function compareAimeAnswers(gold: string, predicted: string): AnswerComparison {
  const normalizedGold = integerForm(gold);
  const normalizedPred = integerForm(predicted);
  const correct = INTEGER.test(normalizedPred) && normalizedPred === normalizedGold;
  return { correct, normalizedGold, normalizedPred, method: 'aime_integer' };
}

/** The AIME grader (`compareAimeAnswers`); ungraded without a gold answer. */
export function aimeGrader(task: Task, answer: string): Grade | undefined {
  if (task.answer === undefined) return undefined;
  return { correct: compareAimeAnswers(task.answer, answer).correct, method: 'aime_integer' };
}

function integerForm(answer: string): string {
  const normalized = normalizeMathAnswer(answer);
  if (!INTEGER.test(normalized)) return normalized;
  const [integer = ''] = normalized.split('.');
  const negative = integer.startsWith('-');
  const digits = integer.replace(/^[+-]/, '').replace(/^0+(?=\d)/, '');
  return negative && digits !== '0' ? `-${digits}` : digits;
}
