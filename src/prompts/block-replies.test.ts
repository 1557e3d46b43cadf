import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerTag, MAX_QUERY_CHARS, readSearchAction, readVerdict, searchTag, verdictTag } from './block-replies.js';
import { extractAnswer } from './extract-answer.js';

/** Reasoning lines as a model writes them before its tag: no tags of their own. */
const reasoning = fc.array(fc.stringMatching(/^[A-Za-z0-9 :=+*().,-]{0,40}$/), { maxLength: 5 }).map((lines) => lines.join('\n'));
const value = fc.stringMatching(/^[A-Za-z0-9 ,.'-]{1,40}$/).filter((text) => text.trim() !== '');

describe('the block reply codec: what the writers write, the blocks read back', () => {
  it('reads back an answer, a verdict and a query after any reasoning', () => {
    fc.assert(
      fc.property(reasoning, value, fc.constantFrom('correct' as const, 'incorrect' as const), (lines, text, verdict) => {
        expect(extractAnswer(`${lines}\n${answerTag(text)}`)).toEqual({ answer: text.trim(), method: 'answer_tag' });
        expect(readVerdict(`${lines}\n${verdictTag(verdict)}`)).toBe(verdict);
        expect(readSearchAction(`${lines}\n${searchTag(text)}`)).toEqual({ kind: 'search', query: text.trim().replace(/\s+/g, ' ') });
      }),
    );
  });

  it('takes the last verdict, and reads anything else as unclear', () => {
    expect(readVerdict(`${verdictTag('incorrect')} on second thought ${verdictTag('correct')}`)).toBe('correct');
    expect(readVerdict('<verdict>maybe</verdict>')).toBe('unclear');
    expect(readVerdict('no tag')).toBe('unclear');
  });

  it('reads whichever of search and answer comes first, cuts long queries, and reads a cut closing tag to the line end', () => {
    expect(readSearchAction(`${answerTag('12')} ${searchTag('more')}`)).toEqual({ kind: 'answer' });
    expect(readSearchAction('nothing here')).toEqual({ kind: 'none' });
    expect(readSearchAction(`<search>  founder\n of   Zentrix `)).toEqual({ kind: 'search', query: 'founder' });
    expect(readSearchAction(searchTag('x'.repeat(MAX_QUERY_CHARS + 10)))).toEqual({ kind: 'search', query: 'x'.repeat(MAX_QUERY_CHARS) });
  });
});
