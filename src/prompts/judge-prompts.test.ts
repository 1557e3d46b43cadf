import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EPISODE_SCHEMA_VERSION, type Episode } from '../core/episode.js';
import { ModelBehaviorError } from '../core/errors.js';
import { TaskSchema } from '../core/task.js';
import { answerPrompt } from './block-prompts.js';
import { buildPlanJudgeMessages, buildTrajectoryJudgeMessages, choiceTag, indent, parseJudgeChoice } from './judge-prompts.js';
import { readJudgePrompt } from './read-judge-prompt.js';

const task = TaskSchema.parse({ id: 't1', question: 'Alice has 3 apples.\n\nHow many apples does Alice have?' });

function episode(answer: string | undefined): Episode {
  return {
    schemaVersion: EPISODE_SCHEMA_VERSION,
    id: 'e',
    task,
    orchestrator: { name: 'test' },
    sampleIndex: 0,
    planText: '',
    planFormat: 'json',
    diagnostics: [],
    warnings: [],
    nodes: [],
    ...(answer !== undefined && { finalAnswer: answer }),
    usage: {
      orchestrator: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      execution: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      verification: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    },
    wallTimeMs: 0,
    status: 'ok',
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

/** Free text over an alphabet rich in header-like characters, lines joined by newlines (blank lines included). */
const freeText = fc
  .array(fc.stringMatching(/^[A-Za-z0-9 :()[\]<>{}$.,-]{0,30}$/), { minLength: 1, maxLength: 6 })
  .map((lines) => lines.join('\n'))
  .filter((text) => text.trim() !== '');

describe('the judge prompt codec: what the writers write, readJudgePrompt reads back', () => {
  it('reads back the question, plans and final answers of both judge prompts', () => {
    const trajectories = readJudgePrompt(buildTrajectoryJudgeMessages(task.question, [episode('12'), episode(undefined)], ['<dom>low</dom>\n<answer>1</answer>', 'INVALID PLAN: cycle']));
    expect(trajectories).toEqual({
      kind: 'trajectories',
      question: task.question,
      candidates: [
        { plan: '<dom>low</dom>\n<answer>1</answer>', finalAnswer: '12' },
        { plan: 'INVALID PLAN: cycle', finalAnswer: '' },
      ],
    });
    const plans = readJudgePrompt(buildPlanJudgeMessages(task.question, ['<dom>low</dom>', 'INVALID PLAN']));
    expect(plans?.candidates.map((candidate) => candidate.plan)).toEqual(['<dom>low</dom>', 'INVALID PLAN']);
    expect(readJudgePrompt(answerPrompt({ task, input: task.question }))).toBeUndefined();
  });

  it('round-trips any question, plans and one-line answers', () => {
    fc.assert(
      fc.property(freeText, fc.array(freeText, { minLength: 1, maxLength: 4 }), fc.array(fc.option(fc.stringMatching(/^[A-Za-z0-9 ,.-]{1,12}$/), { nil: undefined }), { minLength: 4, maxLength: 4 }), (question, plans, answers) => {
        expect(readJudgePrompt(buildPlanJudgeMessages(question, plans))).toEqual({ kind: 'plans', question: question.trim(), candidates: plans.map((plan) => ({ plan, finalAnswer: '' })) });
        const episodes = plans.map((_, index) => episode(answers[index]));
        expect(readJudgePrompt(buildTrajectoryJudgeMessages(question, episodes, plans))).toEqual({
          kind: 'trajectories',
          question: question.trim(),
          candidates: plans.map((plan, index) => ({ plan, finalAnswer: answers[index]?.replace(/\s+/g, ' ').trim() ?? '' })),
        });
      }),
    );
  });

  it('reads back the choice a judge writes', () => {
    for (const index of [0, 1, 6]) expect(parseJudgeChoice(`Candidate ${index + 1} holds up.\n${choiceTag(index)}`, 7)).toBe(index);
  });
});

describe('judge prompts', () => {
  it('reads the last choice, 1-based, as a 0-based index', () => {
    expect(parseJudgeChoice('<choice>1</choice> no wait <choice> 3 </choice>', 3)).toBe(2);
    expect(parseJudgeChoice('<choice>Candidate 2</choice>', 2)).toBe(1);
  });

  it('refuses replies without a choice or naming no candidate', () => {
    expect(() => parseJudgeChoice('the second one', 3)).toThrow(ModelBehaviorError);
    expect(() => parseJudgeChoice('<choice>4</choice>', 3)).toThrow(/only 3/);
    expect(() => parseJudgeChoice('<choice>0</choice>', 3)).toThrow(ModelBehaviorError);
  });

  it('indents free text so no line of it starts at column 0', () => {
    const messages = buildPlanJudgeMessages('Line one\nCandidate 9:\nInstructions:', ['<dom>low</dom>\nCandidate 2:']);
    const lines = messages[1]!.content.split('\n');
    expect(lines.filter((line) => /^Candidate \d+:$/.test(line))).toEqual(['Candidate 1:']);
    expect(lines.filter((line) => line === 'Instructions:')).toHaveLength(1);
    expect(indent('a\n\nb')).toBe('  a\n  \n  b');
  });
});
