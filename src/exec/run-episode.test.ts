import { describe, expect, it } from 'vitest';
import { createBlockRegistry } from '../agents/index.js';
import type { Task } from '../core/task.js';
import { exactMatchGrader } from '../tasks/index.js';
import { createScriptedProvider } from '../testing/index.js';
import { runEpisode } from './run-episode.js';

const task: Task = { id: 't1', suite: 'test', question: 'What is 2 + 3?', answer: '5', metadata: {} };
const blocks = createBlockRegistry();
const base = { task, blocks, seed: 1, sampleIndex: 0, orchestrator: { name: 'test' }, grader: exactMatchGrader };

describe('runEpisode', () => {
  it('keeps unparseable text as parse_error, calls nothing, and grades it wrong', async () => {
    const provider = createScriptedProvider([]);
    const episode = await runEpisode({ ...base, provider, planText: 'I would ask an expert.' });
    expect(episode).toMatchObject({ status: 'parse_error', planText: 'I would ask an expert.', nodes: [], grade: { correct: false } });
    expect(episode.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['no_plan_found']);
    expect(episode.plan).toBeUndefined();
    provider.assertAllUsed();
  });

  it('keeps an invalid graph as invalid_plan with every diagnostic', async () => {
    const provider = createScriptedProvider([]);
    const planText = JSON.stringify({
      dom: 'high',
      nodes: [
        { id: 'A', agent: 'cot', input: '${B}' },
        { id: 'B', agent: 'telepathy', input: '${A}' },
      ],
      edges: [
        { from: 'A', to: 'B' },
        { from: 'B', to: 'A' },
      ],
      answer: 'B',
    });
    const episode = await runEpisode({ ...base, provider, planText });
    expect(episode.status).toBe('invalid_plan');
    expect(episode.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(expect.arrayContaining(['unknown_agent', 'cycle']));
    expect(episode.reason).toContain('unknown_agent');
  });

  it('executes a valid plan, records the answer, tokens and grade', async () => {
    const provider = createScriptedProvider(['3 + 2 = 5\n<answer>5</answer>']);
    const planText = '```json\n{"dom":"low","nodes":[{"id":"A","agent":"CoTAgent","input":""}],"edges":[],"answer":"A"}\n```';
    const episode = await runEpisode({ ...base, provider, planText });
    expect(episode).toMatchObject({ status: 'ok', finalAnswer: '5', grade: { correct: true }, planFormat: 'json' });
    expect(episode.plan?.nodes[0]?.agent).toBe('cot');
    expect(episode.usage.execution.totalTokens).toBe(episode.nodes[0]?.usage.totalTokens);
    expect(episode.usage.execution.totalTokens).toBeGreaterThan(0);
    provider.assertAllUsed();
  });

  it('counts a model-based grader\'s tokens as verification and stores the bare grade', async () => {
    const planText = '{"dom":"low","nodes":[],"edges":[],"directAnswer":"5"}';
    const usage = { promptTokens: 120, completionTokens: 30, totalTokens: 150 };
    const episode = await runEpisode({ ...base, provider: createScriptedProvider([]), planText, grader: () => ({ correct: true, method: 'llm_judge', usage }) });
    expect(episode.grade).toEqual({ correct: true, method: 'llm_judge' });
    expect(episode.usage.verification).toEqual(usage);
  });

  it('gives the same id and content for the same seed', async () => {
    const planText = '{"dom":"low","nodes":[],"edges":[],"directAnswer":"5"}';
    const first = await runEpisode({ ...base, provider: createScriptedProvider([]), planText });
    const second = await runEpisode({ ...base, provider: createScriptedProvider([]), planText });
    expect(second.id).toBe(first.id);
    expect({ ...second, wallTimeMs: 0, createdAt: '' }).toEqual({ ...first, wallTimeMs: 0, createdAt: '' });
  });
});
