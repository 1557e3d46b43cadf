import type { Grade, Task } from '../core/index.js';
import type { AnswerComparison } from './answer-comparison.js';
import { normalizeQaAnswer, qaExactMatch, qaTokenF1 } from './qa-metrics.js';

/**
 * Compares a predicted answer with a gold answer and its aliases the SQuAD way: correct is exact
 * match after normalisation with any of them, score is the best token F1 over them (as MuSiQue's
 * evaluation takes the max over `answer` and `answer_aliases`). `normalizedGold` is the gold
 * form that scored best.
 *
 * @example
 * compareQaAnswers(['Barack Obama', 'Obama'], 'obama.'); // { correct: true, score: 1, normalizedGold: 'obama', ... }
 */
export function compareQaAnswers(golds: readonly string[], predicted: string): AnswerComparison {
  let best = { gold: golds[0] ?? '', exact: 0, f1: 0 };
  for (const gold of golds) {
    const exact = qaExactMatch(gold, predicted);
    const f1 = qaTokenF1(gold, predicted);
    if (exact > best.exact || (exact === best.exact && f1 > best.f1)) best = { gold, exact, f1 };
  }
  return { correct: best.exact === 1, normalizedGold: normalizeQaAnswer(best.gold), normalizedPred: normalizeQaAnswer(predicted), method: 'qa_exact_match', score: best.f1 };
}

/**
 * The QA grader (HotpotQA, MuSiQue): correct = exact match with the answer or an alias after
 * SQuAD normalisation; `score` = the best token F1. Ungraded without a gold answer.
 */
export function qaGrader(task: Task, answer: string): Grade | undefined {
  if (task.answer === undefined) return undefined;
  const { correct, score = 0 } = compareQaAnswers([task.answer, ...(task.answerAliases ?? [])], answer);
  return { correct, score, method: 'qa_exact_match' };
}
