import { describe, expect, test } from 'vitest';
import { findJsonCandidates } from './json-plan.js';

const texts = (input: string) => findJsonCandidates(input).map((candidate) => [candidate.text, candidate.fenced, candidate.complete]);

describe('findJsonCandidates', () => {
  test('skips braces in prose, finds objects that start with a key', () => {
    expect(texts('the set {1, 2} and {x} then {"a": "}"} and {b: 1}')).toEqual([
      ['{"a": "}"}', false, true],
      ['{b: 1}', false, true],
    ]);
  });

  test('reads fence contents, including an unclosed fence', () => {
    expect(texts('```json\n{"a": 1}\n```\ntext\n```\n{"b": 2')).toEqual([
      ['{"a": 1}', true, true],
      ['{"b": 2', true, false],
      ['{"a": 1}', false, true],
      ['{"b": 2', false, false],
    ]);
  });

  test("an apostrophe in an unquoted value does not open a string, a quote after ':' does", () => {
    expect(texts("{note: don't, 'k': '}'} tail")).toEqual([["{note: don't, 'k': '}'}", false, true]]);
  });

  test('an object left open restarts the scan one brace later', () => {
    expect(texts('{"a": {"b": 1}')).toEqual([
      ['{"a": {"b": 1}', false, false],
      ['{"b": 1}', false, true],
    ]);
  });
});
