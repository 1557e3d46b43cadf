import { describe, expect, it } from 'vitest';
import { ReflexionParamsSchema } from '../plan/block-specs.js';
import { createScriptedProvider } from '../testing/scripted-provider.js';
import { reflexionBlock } from './reflexion.js';
import { createTestContext, lastUserMessage } from './test-fixtures/block-context.js';

describe('reflexion block', () => {
  it('refines until the critic accepts, then stops', async () => {
    const provider = createScriptedProvider([
      'First try <answer>40</answer>',
      '6*7 is not 40. <verdict>incorrect</verdict>',
      'Fixed: <answer>42</answer>',
      'Looks right. <verdict> Correct </verdict>',
    ]);
    const context = createTestContext({ provider, params: ReflexionParamsSchema.parse({ maxRounds: 5 }) });
    const result = await reflexionBlock.run(context);
    expect(result.answer).toBe('42');
    expect(result.output).toBe('Fixed: <answer>42</answer>');
    expect(result.artifacts).toEqual({
      kind: 'reflexion',
      initialAnswer: '40',
      rounds: [
        { critique: '6*7 is not 40. <verdict>incorrect</verdict>', verdict: 'incorrect', revisedAnswer: '42' },
        { critique: 'Looks right. <verdict> Correct </verdict>', verdict: 'correct' },
      ],
      acceptedAtRound: 1,
    });
    provider.assertAllUsed();

    const [, critique, refine, secondCritique] = context.requests.map(lastUserMessage);
    expect(critique).toContain('Step: critique\n\nSub-task:\n');
    expect(critique).toContain('Previous answer:\nFirst try <answer>40</answer>\n\nInstructions:');
    expect(refine).toContain('Previous answer:\nFirst try <answer>40</answer>\n\nCritique:\n6*7 is not 40. <verdict>incorrect</verdict>\n\n');
    expect(refine).toMatch(/^Step: refine\n/);
    expect(secondCritique).toContain('Previous answer:\nFixed: <answer>42</answer>');
  });

  it('respects maxRounds and treats a missing verdict as unclear', async () => {
    const provider = createScriptedProvider([
      '<answer>1</answer>',
      'no verdict here',
      '<answer>2</answer>',
      '<verdict>maybe</verdict>',
      '<answer>3</answer>',
    ]);
    const context = createTestContext({ provider, params: ReflexionParamsSchema.parse({ maxRounds: 2 }) });
    const result = await reflexionBlock.run(context);
    expect(result.answer).toBe('3');
    expect(result.artifacts).toMatchObject({
      initialAnswer: '1',
      rounds: [
        { verdict: 'unclear', revisedAnswer: '2' },
        { verdict: 'unclear', revisedAnswer: '3' },
      ],
    });
    expect(result.artifacts).not.toHaveProperty('acceptedAtRound');
    provider.assertAllUsed();
  });

  it('with maxRounds 0 only answers', async () => {
    const provider = createScriptedProvider(['<answer>9</answer>']);
    const result = await reflexionBlock.run(createTestContext({ provider, params: ReflexionParamsSchema.parse({ maxRounds: 0 }) }));
    expect(result.artifacts).toEqual({ kind: 'reflexion', initialAnswer: '9', rounds: [] });
    provider.assertAllUsed();
  });
});
