import { describe, expect, test } from 'vitest';
import { compareQaAnswers, qaGrader } from './qa-grader.js';
import { normalizeQaAnswer, qaExactMatch, qaTokenF1 } from './qa-metrics.js';

describe('SQuAD metrics', () => {
  test('normalisation: case, punctuation, articles, whitespace', () => {
    expect(normalizeQaAnswer('The  Eiffel Tower!')).toBe('eiffel tower');
    expect(normalizeQaAnswer('An apple, a day')).toBe('apple day');
    expect(normalizeQaAnswer('Théâtre the')).toBe('théâtre');
    expect(normalizeQaAnswer('anthem')).toBe('anthem');
  });

  test('exact match', () => {
    expect(qaExactMatch('Barack Obama', 'barack obama.')).toBe(1);
    expect(qaExactMatch('Barack Obama', 'Obama')).toBe(0);
  });

  test('token F1 exact values', () => {
    expect(qaTokenF1('Barack Obama', 'Obama')).toBeCloseTo(2 / 3, 12);
    expect(qaTokenF1('the cat sat on the mat', 'a cat on a mat')).toBeCloseTo((2 * 1 * 0.75) / 1.75, 12);
    expect(qaTokenF1('New York City', 'New York')).toBeCloseTo(0.8, 12);
    expect(qaTokenF1('x y y', 'y y y')).toBeCloseTo(2 / 3, 12);
    expect(qaTokenF1('a b b', 'b b b')).toBeCloseTo(0.8, 12); // 'a' is an article
    expect(qaTokenF1('Paris', 'London')).toBe(0);
    // HotpotQA: yes/no answers get no partial credit.
    expect(qaTokenF1('yes', 'yes it is')).toBe(0);
    expect(qaTokenF1('yes', 'Yes.')).toBe(1);
  });

  test('aliases: exact match on any, best F1 over all', () => {
    expect(compareQaAnswers(['G. Stanley Hall', 'Stanley Hall'], 'stanley hall')).toEqual({
      correct: true,
      normalizedGold: 'stanley hall',
      normalizedPred: 'stanley hall',
      method: 'qa_exact_match',
      score: 1,
    });
    expect(compareQaAnswers(['G. Stanley Hall', 'Stanley Hall'], 'Hall')).toMatchObject({ correct: false, score: 2 / 3, normalizedGold: 'stanley hall' });
  });

  test('qaGrader reads the task aliases and reports F1 as score', () => {
    const task = { id: 'm', suite: 'musique', question: 'q', answer: 'G. Stanley Hall', answerAliases: ['Stanley Hall'], metadata: {} };
    expect(qaGrader(task, 'Stanley Hall')).toEqual({ correct: true, score: 1, method: 'qa_exact_match' });
    expect(qaGrader(task, 'Granville Stanley Hall')).toEqual({ correct: false, score: 0.8, method: 'qa_exact_match' });
    expect(qaGrader({ ...task, answer: undefined }, 'x')).toBeUndefined();
  });
});
