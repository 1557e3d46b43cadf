import { describe, expect, it } from 'vitest';
import { DebateParamsSchema } from '../plan/block-specs.js';
import { createScriptedProvider } from '../testing/scripted-provider.js';
import { debateBlock } from './debate.js';
import { createTestContext, lastUserMessage } from './test-fixtures/block-context.js';

describe('debate block', () => {
  it('shows each role the others\' previous answers and reasoning, then decides', async () => {
    const provider = createScriptedProvider([
      'Economist thinks ten. <answer>10</answer>',
      'Analyst computes twelve. <answer>12</answer>',
      'Skeptic agrees with twelve. <answer>12</answer>',
      'Economist now agrees. <answer>12</answer>',
      'Analyst holds. <answer>12</answer>',
      'Skeptic holds. <answer>$12$</answer>',
      'All agree. <answer>12</answer>',
    ]);
    const params = DebateParamsSchema.parse({ roles: ['Economist', 'Analyst', 'Skeptic'], rounds: 2, temperature: 0.7 });
    const context = createTestContext({ provider, params });
    const result = await debateBlock.run(context);
    provider.assertAllUsed();

    expect(result.answer).toBe('12');
    expect(result.output).toBe('All agree. <answer>12</answer>');
    expect(result.artifacts).toEqual({
      kind: 'debate',
      roles: ['Economist', 'Analyst', 'Skeptic'],
      rounds: [
        { turns: [{ role: 'Economist', answer: '10' }, { role: 'Analyst', answer: '12' }, { role: 'Skeptic', answer: '12' }] },
        { turns: [{ role: 'Economist', answer: '12' }, { role: 'Analyst', answer: '12' }, { role: 'Skeptic', answer: '$12$' }] },
      ],
      finalAnswer: '12',
      converged: true,
    });
    expect(context.requests.map((request) => request.sampleIndex)).toEqual([0, 1, 2, 0, 1, 2, undefined]);

    const prompts = context.requests.map(lastUserMessage);
    expect(prompts[0]).toContain('Role: Economist\nRound: 1 of 2');
    expect(prompts[0]).not.toContain("Other agents' answers:");
    const economistRound2 = prompts[3] ?? '';
    expect(economistRound2).toMatch(/^Step: debate-turn\n/);
    expect(economistRound2).toContain('Role: Economist\nRound: 2 of 2');
    expect(economistRound2).toContain('Your previous answer:\n10\n\n');
    expect(economistRound2).toContain("Other agents' answers:\n- Analyst: 12\n- Skeptic: 12\n\n");
    expect(economistRound2).toContain(
      "Other agents' reasoning:\n### Analyst\nAnalyst computes twelve. <answer>12</answer>\n### Skeptic\nSkeptic agrees with twelve. <answer>12</answer>\n\n",
    );
    expect(economistRound2).not.toContain('Economist thinks ten');
    expect(prompts[4]).toContain("Other agents' answers:\n- Economist: 10\n- Skeptic: 12\n");

    const final = prompts[6] ?? '';
    expect(final).toMatch(/^Step: debate-final\n/);
    expect(final).toContain('Debate answers:\n- Round 1, Economist: 10\n- Round 1, Analyst: 12\n- Round 1, Skeptic: 12\n- Round 2, Economist: 12\n');
    expect(final).toContain('Final-round reasoning:\n### Economist\nEconomist now agrees.');
  });

  it('reports no convergence when the last round disagrees, and tells repeated roles apart by position', async () => {
    const provider = createScriptedProvider(['<answer>1</answer>', '<answer>2</answer>', 'Undecided. <answer>2</answer>']);
    const context = createTestContext({ provider, params: DebateParamsSchema.parse({ roles: ['Expert', 'Expert'], rounds: 1 }) });
    const result = await debateBlock.run(context);
    expect(result.artifacts).toMatchObject({ converged: false, finalAnswer: '2' });
    expect(context.requests.map((request) => request.sampleIndex)).toEqual([0, 1, undefined]);
    provider.assertAllUsed();
  });

  it('sees the other same-named role in later rounds', async () => {
    const provider = createScriptedProvider(['<answer>1</answer>', '<answer>2</answer>', '<answer>1</answer>', '<answer>1</answer>', '<answer>1</answer>']);
    const context = createTestContext({ provider, params: DebateParamsSchema.parse({ roles: ['Expert', 'Expert'], rounds: 2 }) });
    const result = await debateBlock.run(context);
    const prompts = context.requests.map(lastUserMessage);
    expect(prompts[2]).toContain("Your previous answer:\n1\n\nOther agents' answers:\n- Expert: 2\n");
    expect(prompts[3]).toContain("Your previous answer:\n2\n\nOther agents' answers:\n- Expert: 1\n");
    expect(result.artifacts).toMatchObject({ converged: true });
  });
});
