import type { Grader } from '../core/index.js';
import { normalizeAnswer } from '../agents/index.js';
import { aimeGrader, compareAimeAnswers } from './aime-grader.js';
import type { AnswerComparison } from './answer-comparison.js';
import { exactMatchGrader } from './exact-match-grader.js';
import { compareMathAnswers, mathGrader } from './math-grader.js';
import { compareQaAnswers, qaGrader } from './qa-grader.js';
import type { Suite } from './load-suite.js';

/**
 * The grader the field uses for a suite: math equivalence for `gsm8k` and `math`, integers for
 * `aime`, SQuAD exact match (with token F1 as score) for `hotpotqa` and `musique`, and the
 * normalised exact match for generic `jsonl` files. A task's own `suite` may differ from the
 * file's (a generic file can hold math tasks): pass the one whose grading you want.
 *
 * @example
 * const grader = graderFor('math'); // what createRemoteEnvironment(config, path, { suite: 'math' }) grades with
 */
export function graderFor(suite: Suite): Grader {
  switch (suite) {
    case 'gsm8k':
    case 'math':
      return mathGrader;
    case 'aime':
      return aimeGrader;
    case 'hotpotqa':
    case 'musique':
      return qaGrader;
    case 'jsonl':
      return exactMatchGrader;
  }
}

/**
 * Grades one answer against a gold answer (and aliases) with the suite's rule and says how: the
 * library behind `orchrm grade`.
 *
 * @example
 * gradeAnswer('gsm8k', '18', '$18.00'); // { correct: true, normalizedGold: '18', normalizedPred: '18.00', method: 'math_numeric' }
 */
export function gradeAnswer(suite: Suite, gold: string, predicted: string, aliases: readonly string[] = []): AnswerComparison {
  const golds = [gold, ...aliases];
  switch (suite) {
    case 'gsm8k':
    case 'math':
      return bestOf(golds.map((candidate) => compareMathAnswers(candidate, predicted)));
    case 'aime':
      return bestOf(golds.map((candidate) => compareAimeAnswers(candidate, predicted)));
    case 'hotpotqa':
    case 'musique':
      return compareQaAnswers(golds, predicted);
    case 'jsonl': {
      const normalizedPred = normalizeAnswer(predicted);
      const normalizedGolds = golds.map(normalizeAnswer);
      const matched = normalizedPred !== '' && normalizedGolds.includes(normalizedPred);
      return { correct: matched, normalizedGold: matched ? normalizedPred : normalizedGolds[0]!, normalizedPred, method: 'normalized_exact_match' };
    }
  }
}

function bestOf(comparisons: readonly AnswerComparison[]): AnswerComparison {
  return comparisons.find((comparison) => comparison.correct) ?? comparisons[0]!;
}
