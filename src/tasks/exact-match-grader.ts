import type { Grade, Task } from '../core/index.js';
import { normalizeAnswer } from '../agents/index.js';

/**
 * The default grader: the answer equals the gold answer or one of its aliases after the same
 * normalisation self-consistency votes with (case, whitespace, `$`, number formatting).
 * Tasks without a gold answer are left ungraded.
 */
export function exactMatchGrader(task: Task, answer: string): Grade | undefined {
  if (task.answer === undefined) return undefined;
  const predicted = normalizeAnswer(answer);
  const golds = [task.answer, ...(task.answerAliases ?? [])].map(normalizeAnswer);
  return { correct: predicted !== '' && golds.includes(predicted), method: 'normalized_exact_match' };
}
