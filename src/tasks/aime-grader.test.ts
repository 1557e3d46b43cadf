import { describe, expect, test } from 'vitest';
import { aimeGrader, compareAimeAnswers } from './aime-grader.js';

const task = { id: 't', suite: 'aime', question: 'q', answer: '25', metadata: {} };

describe('compareAimeAnswers', () => {
  test.each(['25', '025', '\\boxed{025}', '$25$', '25.0', ' 25. '])('accepts %s for 25', (predicted) => {
    expect(compareAimeAnswers('25', predicted)).toMatchObject({ correct: true, normalizedGold: '25', normalizedPred: '25', method: 'aime_integer' });
  });

  test.each(['24', '250', '25.5', '\\frac{50}{2}', 'twenty-five', ''])('rejects %s for 25', (predicted) => {
    expect(compareAimeAnswers('25', predicted).correct).toBe(false);
  });

  test('a gold written with leading zeros matches, and zero is zero', () => {
    expect(compareAimeAnswers('007', '7').correct).toBe(true);
    expect(compareAimeAnswers('0', '000').correct).toBe(true);
  });

  test('the grader leaves tasks without gold ungraded', () => {
    expect(aimeGrader(task, '025')).toEqual({ correct: true, method: 'aime_integer' });
    expect(aimeGrader({ ...task, answer: undefined }, '025')).toBeUndefined();
  });
});
