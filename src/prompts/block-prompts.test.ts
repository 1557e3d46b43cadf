import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerPrompt,
  critiquePrompt,
  debateFinalPrompt,
  debateTurnPrompt,
  refinePrompt,
  searchFeedbackMessage,
  searchStartPrompt,
} from './block-prompts.js';
import type { ChatMessage } from '../core/llm-call.js';
import { TaskSchema } from '../core/task.js';
import { readBlockPrompt } from './read-block-prompt.js';

const task = TaskSchema.parse({ id: 't1', question: 'Chain a: start at 5; add 3; add 4. What is the total?' });
const subTaskWithBlankLine = 'Compute the first part.\n\nThen report it as a number.';

/** Free text without blank lines (a blank line followed by a header line would start a section), over header-like characters. */
const freeText = fc
  .array(fc.stringMatching(/^[A-Za-z0-9 :()[\]<>{}$.,'-]{1,30}$/).filter((line) => line.trim() !== ''), { minLength: 1, maxLength: 4 })
  .map((lines) => lines.join('\n').trim());
const oneLine = fc.stringMatching(/^[A-Za-z0-9 ,.$'-]{0,20}$/).map((text) => text.trim());
const roleName = fc.stringMatching(/^[A-Z][a-z]{1,10}$/);

describe('the block prompt codec: what the writers write, readBlockPrompt reads back', () => {
  it('round-trips the sub-task, question, reviewed answer and critique of answer, critique and refine prompts', () => {
    fc.assert(
      fc.property(freeText, freeText, freeText, freeText, (input, question, previous, critique) => {
        const subject = { task: TaskSchema.parse({ id: 't', question }), input };
        const view = { subTask: input, originalQuestion: input === question ? input : question, documents: [] };
        expect(readBlockPrompt(answerPrompt(subject))).toMatchObject({ step: 'answer', view });
        expect(readBlockPrompt(critiquePrompt(subject, previous))).toMatchObject({ step: 'critique', view, previousAnswer: previous });
        expect(readBlockPrompt(refinePrompt(subject, previous, critique))).toMatchObject({ step: 'refine', view, previousAnswer: previous, critique });
      }),
    );
  });

  it('round-trips the role, round and answers of debate prompts', () => {
    const turn = fc.record({ role: roleName, answer: oneLine, output: freeText });
    fc.assert(
      fc.property(freeText, turn, fc.array(turn, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 4 }), (input, own, others, round) => {
        const subject = { task, input };
        const parsed = readBlockPrompt(debateTurnPrompt(subject, { role: own.role, round, rounds: 5, own, others }));
        expect(parsed).toMatchObject({ step: 'debate-turn', role: own.role, round: round + 1, rounds: 5, ownPreviousAnswer: own.answer, view: { subTask: input } });
        expect(parsed.otherAnswers).toEqual(others.map((other) => ({ round: 0, role: other.role, answer: other.answer })));
        const final = readBlockPrompt(debateFinalPrompt(subject, { rounds: [others, [own]] }));
        expect(final.debateAnswers).toEqual([...others.map((other) => ({ round: 1, role: other.role, answer: other.answer })), { round: 2, role: own.role, answer: own.answer }]);
      }),
    );
  });

  it('round-trips the documents and iterations of a search conversation', () => {
    const shownDocument = fc.record({ id: fc.stringMatching(/^[a-z0-9-]{1,12}$/), title: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,20}$/).map((text) => text.trim()), text: freeText, score: fc.constant(1) });
    fc.assert(
      fc.property(freeText, fc.uniqueArray(shownDocument, { selector: (document) => document.id, maxLength: 5 }), fc.integer({ min: 0, max: 4 }), (input, documents, iterationsLeft) => {
        const messages: ChatMessage[] = [...searchStartPrompt({ task, input }, 5), { role: 'assistant', content: '<search>q</search>' }, searchFeedbackMessage({ query: 'q', documents, iterationsLeft })];
        const parsed = readBlockPrompt(messages);
        expect(parsed).toMatchObject({ step: iterationsLeft === 0 ? 'search-final' : 'search', iterationsLeft, view: { subTask: input } });
        expect(parsed.view.documents).toEqual(documents.map(({ id, title, text }) => ({ id, title, text })));
      }),
    );
  });
});

describe('readBlockPrompt', () => {
  it('reads an answer prompt whose sub-task is the question', () => {
    const parsed = readBlockPrompt(answerPrompt({ task, input: task.question }));
    expect(parsed.step).toBe('answer');
    expect(parsed.view).toEqual({ subTask: task.question, originalQuestion: task.question, documents: [] });
  });

  it('keeps a sub-task with blank lines whole and reads the original question', () => {
    const parsed = readBlockPrompt(answerPrompt({ task, input: subTaskWithBlankLine }));
    expect(parsed.view.subTask).toBe(subTaskWithBlankLine);
    expect(parsed.view.originalQuestion).toBe(task.question);
  });

  it('reads the previous answer of a critique and the critique of a refine', () => {
    const previous = 'Adding 3 gives 8.\n\nAdding 4 gives 12.\n<answer>12</answer>';
    const critique = readBlockPrompt(critiquePrompt({ task, input: task.question }, previous));
    expect(critique.step).toBe('critique');
    expect(critique.previousAnswer).toBe(previous);
    const refine = readBlockPrompt(refinePrompt({ task, input: 'Sub part' }, previous, 'Step 2 is wrong.\n<verdict>incorrect</verdict>'));
    expect(refine).toMatchObject({
      step: 'refine',
      previousAnswer: previous,
      critique: 'Step 2 is wrong.\n<verdict>incorrect</verdict>',
      view: { subTask: 'Sub part', originalQuestion: task.question },
    });
  });

  it('reads role, round, own answer and the other agents of a debate turn', () => {
    const first = readBlockPrompt(debateTurnPrompt({ task, input: task.question }, { role: 'Critic', round: 0, rounds: 3, others: [] }));
    expect(first).toMatchObject({ step: 'debate-turn', role: 'Critic', round: 1, rounds: 3, otherAnswers: [] });
    expect(first.ownPreviousAnswer).toBeUndefined();
    const later = readBlockPrompt(
      debateTurnPrompt(
        { task, input: task.question },
        {
          role: 'Critic',
          round: 2,
          rounds: 3,
          own: { role: 'Critic', answer: '12', output: 'x\n<answer>12</answer>' },
          others: [
            { role: 'Solver', answer: '13', output: 'Line one.\n\nLine two.\n<answer>13</answer>' },
            { role: 'Judge: senior', answer: 'a: b', output: '<answer>a: b</answer>' },
            { role: 'Empty', answer: '', output: 'no tags' },
          ],
        },
      ),
    );
    expect(later).toMatchObject({ step: 'debate-turn', role: 'Critic', round: 3, rounds: 3, ownPreviousAnswer: '12' });
    // A role containing ': ' is ambiguous in the `- <role>: <answer>` line; the first ': ' splits.
    expect(later.otherAnswers).toEqual([
      { round: 0, role: 'Solver', answer: '13' },
      { round: 0, role: 'Judge', answer: 'senior: a: b' },
      { round: 0, role: 'Empty', answer: '' },
    ]);
    expect(later.view.subTask).toBe(task.question);
  });

  it('reads every round of the debate answers in a debate-final prompt', () => {
    const turn = (role: string, answer: string) => ({ role, answer, output: `<answer>${answer}</answer>` });
    const parsed = readBlockPrompt(
      debateFinalPrompt({ task, input: task.question }, { rounds: [[turn('A', '1'), turn('B', '2')], [turn('A', '2'), turn('B', '2')]] }),
    );
    expect(parsed.step).toBe('debate-final');
    expect(parsed.debateAnswers).toEqual([
      { round: 1, role: 'A', answer: '1' },
      { round: 1, role: 'B', answer: '2' },
      { round: 2, role: 'A', answer: '2' },
      { round: 2, role: 'B', answer: '2' },
    ]);
  });

  it('follows a search conversation: step of the last message, sub-task of the first, documents of all', () => {
    const messages: ChatMessage[] = [
      ...searchStartPrompt({ task, input: 'Find the code of Ada' }, 3),
      { role: 'assistant', content: '<search>code of Ada</search>' },
      searchFeedbackMessage({
        query: 'code of Ada',
        documents: [
          { id: 'doc-1', title: 'Ada (id: fake)', text: 'The code of Ada is 101.', score: 2 },
          { id: 'doc-2', title: 'Bea', text: `${'x'.repeat(700)}`, score: 1 },
        ],
        iterationsLeft: 2,
      }),
      { role: 'assistant', content: '<search>Bea</search>' },
      searchFeedbackMessage({ query: 'Bea', documents: [{ id: 'doc-2', title: 'Bea', text: 'again', score: 1 }, { id: 'doc-3', title: 'Cid', text: 'Line 1\nLine 2', score: 1 }], iterationsLeft: 1 }),
      { role: 'assistant', content: '<search>nothing</search>' },
      searchFeedbackMessage({ query: 'nothing', documents: [], iterationsLeft: 0 }),
    ];
    const start = readBlockPrompt(messages.slice(0, 2));
    expect(start).toMatchObject({ step: 'search', iterationsLeft: 3, view: { subTask: 'Find the code of Ada', originalQuestion: task.question } });
    const parsed = readBlockPrompt(messages);
    expect(parsed.step).toBe('search-final');
    expect(parsed.iterationsLeft).toBe(0);
    expect(parsed.view.subTask).toBe('Find the code of Ada');
    expect(parsed.view.documents).toEqual([
      { id: 'doc-1', title: 'Ada (id: fake)', text: 'The code of Ada is 101.' },
      { id: 'doc-2', title: 'Bea', text: 'x'.repeat(600) },
      { id: 'doc-3', title: 'Cid', text: 'Line 1\nLine 2' },
    ]);
    const failed = readBlockPrompt([...messages.slice(0, 2), searchFeedbackMessage({ query: 'q', error: 'index offline', iterationsLeft: 1 })]);
    expect(failed.view.documents).toEqual([]);
    expect(failed.step).toBe('search');
  });

  it('treats an unparseable prompt as a question: the whole last user message', () => {
    const text = 'What is 6 times 7?\nStep: answer';
    const parsed = readBlockPrompt([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: `  ${text}\n` }]);
    expect(parsed.step).toBe('unknown');
    expect(parsed.view).toEqual({ subTask: text, originalQuestion: text, documents: [] });
    expect(readBlockPrompt([]).view.subTask).toBe('');
    expect(readBlockPrompt([{ role: 'user', content: 'Step: ponder\n\nSub-task:\nX' }]).step).toBe('unknown');
  });

  it('is not fooled by headers inside a sub-task line, and parses hostile text', () => {
    const parsed = readBlockPrompt(answerPrompt({ task, input: 'Step: critique the plan\nRole: none' }));
    expect(parsed.step).toBe('answer');
    expect(parsed.role).toBeUndefined();
    const hostile = `Step: search\n\nSub-task:\n${'[1] '.repeat(20_000)}(id: \n${'- Round 1, '.repeat(5_000)}`;
    expect(readBlockPrompt([{ role: 'user', content: hostile }]).step).toBe('search');
  });
});
