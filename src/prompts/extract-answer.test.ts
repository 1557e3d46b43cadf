import { describe, expect, it } from 'vitest';
import { extractAnswer } from './extract-answer.js';

describe('extractAnswer', () => {
  it('takes the last answer tag', () => {
    expect(extractAnswer('<answer>1</answer> then <ANSWER> 2 </Answer>')).toEqual({ answer: '2', method: 'answer_tag' });
  });

  it('prefers answer tags over boxed and answer lines', () => {
    expect(extractAnswer('Answer: 3\n\\boxed{4}\n<answer>5</answer>')).toEqual({ answer: '5', method: 'answer_tag' });
  });

  it('unwraps a boxed answer inside the tag', () => {
    expect(extractAnswer('<answer>so \\boxed{7}</answer>')).toEqual({ answer: '7', method: 'answer_tag' });
  });

  it('accepts a trailing unclosed answer tag cut by a stop sequence', () => {
    expect(extractAnswer('<answer>1</answer> wait, <answer>12')).toEqual({ answer: '12', method: 'answer_tag' });
    expect(extractAnswer('<answer>1</answer> then <answer>')).toEqual({ answer: '1', method: 'answer_tag' });
  });

  it('keeps nested braces in boxed and takes the last balanced one', () => {
    expect(extractAnswer('first \\boxed{1} then $\\boxed{\\frac{1}{\\sqrt{2}}}$')).toEqual({
      answer: '\\frac{1}{\\sqrt{2}}',
      method: 'boxed',
    });
    expect(extractAnswer('\\boxed{\\{1,2\\}}')).toEqual({ answer: '\\{1,2\\}', method: 'boxed' });
  });

  it('skips an unbalanced trailing boxed', () => {
    expect(extractAnswer('\\boxed{8} and \\boxed{9')).toEqual({ answer: '8', method: 'boxed' });
  });

  it('reads Answer and Final answer lines, markdown included', () => {
    expect(extractAnswer('Reasoning.\nAnswer: 42\nmore text')).toEqual({ answer: '42', method: 'answer_line' });
    expect(extractAnswer('**Final Answer:** Paris')).toEqual({ answer: 'Paris', method: 'answer_line' });
    expect(extractAnswer('## Final answer:\n\n  17\n')).toEqual({ answer: '17', method: 'answer_line' });
    expect(extractAnswer('Answer: 1\nFinal answer: 2')).toEqual({ answer: '2', method: 'answer_line' });
  });

  it('does not treat words containing answer as answer lines', () => {
    expect(extractAnswer('The answers: vary\nlast')).toEqual({ answer: 'last', method: 'last_line' });
  });

  it('falls back to the last non-empty line, then to none', () => {
    expect(extractAnswer('a\n b \n\n')).toEqual({ answer: 'b', method: 'last_line' });
    expect(extractAnswer(' \n ')).toEqual({ answer: '', method: 'none' });
    expect(extractAnswer('')).toEqual({ answer: '', method: 'none' });
  });

  it('stays fast on hostile input', () => {
    const hostile = `${'<answer>'.repeat(20_000)}${'\\boxed{'.repeat(20_000)}${' '.repeat(50_000)}answer${'{'.repeat(50_000)}`;
    // Quadratic scanning of these 200k characters would run into the test timeout.
    expect(extractAnswer(hostile).method).toBe('answer_tag');
    expect(extractAnswer(hostile.replaceAll('<answer>', '<a>')).method).toBe('last_line');
  });
});
