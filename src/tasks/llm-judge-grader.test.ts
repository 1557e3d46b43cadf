import { afterEach, describe, expect, test } from 'vitest';
import { ModelBehaviorError } from '../core/errors.js';
import type { Usage } from '../core/usage.js';
import { createOpenAiProvider } from '../llm/index.js';
import { startChatServer, type ChatServer } from '../testing/index.js';
import { createLlmJudgeGrader } from './llm-judge-grader.js';
import { splitGradeUsage } from '../core/grader.js';

let server: ChatServer | undefined;
afterEach(async () => server?.close());

const task = { id: 'b1', suite: 'browsecomp', question: "What are the names of Barack Obama's children?", answer: 'Malia Obama and Sasha Obama', answerAliases: ['Malia and Sasha'], metadata: {} };
const models = { orchestrator: 'orch', worker: 'work', judge: 'judge-model' };

function provider(url: string) {
  return createOpenAiProvider({ baseURL: url, models, maxRetries: 0 }, { env: {} });
}

describe('createLlmJudgeGrader', () => {
  test('asks the judge slot with the BrowseComp-style template and reads the last verdict', async () => {
    server = await startChatServer({
      handler: () => ({
        text: 'extracted_final_answer: Sasha and Malia\n\nreasoning: Same two people; the word "correct: no" in prose is not a verdict.\n\n**correct:** yes',
        usage: { promptTokens: 120, completionTokens: 30 },
      }),
    });
    const seen: Usage[] = [];
    const grader = createLlmJudgeGrader({ provider: provider(server.url), events: (event) => seen.push(event.usage) });
    const grade = await grader(task, 'I think sasha and malia obama');
    expect(grade).toEqual({
      correct: true,
      method: 'llm_judge',
      usage: { promptTokens: 120, completionTokens: 30, totalTokens: 150 },
      judgeResponse: expect.stringContaining('**correct:** yes'),
      extractedAnswer: 'Sasha and Malia',
    });
    expect(seen).toEqual([{ promptTokens: 120, completionTokens: 30, totalTokens: 150 }]);
    const request = server.requests[0]!;
    expect(request.model).toBe('judge-model');
    expect(request.temperature).toBe(0);
    const prompt = request.messages[0]!.content as string;
    expect(prompt).toContain(`[question]: ${task.question}`);
    expect(prompt).toContain('[response]: I think sasha and malia obama');
    expect(prompt).toContain('[correct_answer]: Malia Obama and Sasha Obama (also accepted: Malia and Sasha)');
    expect(prompt).toMatch(/correct: 'yes' if extracted_final_answer matches/);
    // The verification tokens split off, leaving a Grade the episode schema accepts.
    expect(splitGradeUsage(grade!)).toEqual({ grade: { correct: true, method: 'llm_judge' }, usage: { promptTokens: 120, completionTokens: 30, totalTokens: 150 } });
  });

  test('a "no" verdict is a wrong answer; placeholders in the answer are not substituted', async () => {
    server = await startChatServer({ handler: () => ({ text: 'extracted_final_answer: None\nreasoning: no answer given\ncorrect: no' }) });
    const grade = await createLlmJudgeGrader({ provider: provider(server.url) })(task, 'see {correct_answer}');
    expect(grade).toMatchObject({ correct: false, method: 'llm_judge', extractedAnswer: 'None' });
    expect(server.requests[0]!.messages[0]!.content).toContain('[response]: see {correct_answer}');
  });

  test('a reply without a verdict throws ModelBehaviorError after reporting its tokens', async () => {
    server = await startChatServer({ handler: () => ({ text: 'I cannot decide.', usage: { promptTokens: 10, completionTokens: 4 } }) });
    const seen: Usage[] = [];
    const grader = createLlmJudgeGrader({ provider: provider(server.url), events: (event) => seen.push(event.usage) });
    await expect(grader(task, 'Malia')).rejects.toThrow(ModelBehaviorError);
    expect(seen).toEqual([{ promptTokens: 10, completionTokens: 4, totalTokens: 14 }]);
  });

  test('reads a judge reply of many blank lines in linear time (issue 23: the verdict regexes were quadratic)', async () => {
    // Two runs of 60,000 newlines: 8.1 s of the old two regexes on the build machine, blocking the event loop; milliseconds now.
    const blankLines = '\n'.repeat(60_000);
    server = await startChatServer({ handler: () => ({ text: `extracted_final_answer: Malia${blankLines}> **correct:**\n yes${blankLines}x` }) });
    const grader = createLlmJudgeGrader({ provider: provider(server.url) });
    const startedAt = performance.now();
    const grade = await grader(task, 'Malia');
    expect(performance.now() - startedAt).toBeLessThan(1_000);
    expect(grade).toMatchObject({ correct: true, extractedAnswer: 'Malia' });
  });

  test('tasks without gold are not sent to the judge', async () => {
    server = await startChatServer();
    expect(await createLlmJudgeGrader({ provider: provider(server.url) })({ ...task, answer: undefined }, 'x')).toBeUndefined();
    expect(server.requests).toEqual([]);
  });
});
