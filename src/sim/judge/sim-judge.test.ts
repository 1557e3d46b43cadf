import { describe, expect, it } from 'vitest';
import { answerPrompt } from '../../prompts/block-prompts.js';
import { EPISODE_SCHEMA_VERSION, type Episode } from '../../core/episode.js';
import { Rng } from '../../core/rng.js';
import type { Task } from '../../core/task.js';
import { buildPlanJudgeMessages, buildTrajectoryJudgeMessages, parseJudgeChoice } from '../../prompts/judge-prompts.js';
import { createSimEnvironment } from '../environment.js';
import { ScenarioSchema, type ScenarioInput } from '../scenario/scenario-schema.js';
import { generateScenarioTasks } from '../scenario-tasks.js';
import { pickTrajectory, trajectoryPickRate } from './pick-trajectory.js';

// No planted notes: a note (issue 21) can sink every plan on a small task, and these tests compare plans, not notes.
const scenarioInput = (judge: ScenarioInput['judge'] = {}): ScenarioInput => ({ name: 'judge-test', seed: 3, families: { arith: { weight: 1, misleading: [0, 0] } }, judge });

async function setup(judge: ScenarioInput['judge'] = {}) {
  const scenario = ScenarioSchema.parse(scenarioInput(judge));
  const environment = await createSimEnvironment(scenario);
  const tasks = generateScenarioTasks(scenario, environment.families, { split: 'test', count: 3 });
  return { scenario, environment, task: tasks[0]! };
}

function episode(task: Task, answer: string | undefined): Episode {
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

const COT = JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'cot', input: '', params: {} }], edges: [], answer: 'A' });

describe('simulated trajectory judge', () => {
  it('picks the one correct candidate at sigmoid(skill - lengthPenalty ln N), through the environment', async () => {
    const { environment, scenario, task } = await setup({ trajectorySkill: 1.5, lengthPenalty: 0.5 });
    for (const n of [2, 8]) {
      const answers = Array.from({ length: n }, (_, index) => (index === n - 1 ? task.answer! : String(1000 + index)));
      const messages = buildTrajectoryJudgeMessages(task.question, answers.map((answer) => episode(task, answer)), answers.map(() => 'INVALID PLAN'));
      const trials = 600;
      let correct = 0;
      for (let seed = 0; seed < trials; seed++) {
        const response = await environment.provider.chat({ messages, slot: 'judge', seed });
        expect(response.model).toBe('sim-judge');
        if (parseJudgeChoice(response.text, n) === n - 1) correct++;
      }
      const expected = trajectoryPickRate(scenario.judge, n);
      // 600 trials: sd of the rate is at most 0.02; allow 3.5 sd.
      expect(Math.abs(correct / trials - expected)).toBeLessThan(0.07);
    }
  });

  it('bills hidden reasoning per candidate and is deterministic in the request', async () => {
    const { environment, task } = await setup({ reasoningTokensPerCandidate: 250 });
    const messages = buildTrajectoryJudgeMessages(task.question, [episode(task, '1'), episode(task, '2'), episode(task, '3')], ['a', 'b', 'c']);
    const first = await environment.provider.chat({ messages, slot: 'judge', seed: 9 });
    const again = await environment.provider.chat({ messages, slot: 'judge', seed: 9 });
    expect(again.text).toBe(first.text);
    expect(first.usage.completionTokens).toBeGreaterThanOrEqual(750);
    expect(first.usage.completionTokens).toBeLessThan(800);
  });

  it('when it errs, or nothing is correct, it goes with the most common wrong answer', () => {
    const judge = ScenarioSchema.parse(scenarioInput({ trajectorySkill: -50 })).judge;
    const rng = new Rng(1);
    for (let trial = 0; trial < 50; trial++) expect(pickTrajectory(['7', '', '9', '42', '9'], '42', judge, rng)).toBeOneOf([2, 4]);
    expect(pickTrajectory(['42', '42'], '42', judge, rng)).toBeOneOf([0, 1]);
    // An answerless trajectory is never preferred to an answer, even by a judge that errs.
    for (let trial = 0; trial < 20; trial++) expect(pickTrajectory(['', '42', ''], '42', judge, rng)).toBe(1);
    expect(pickTrajectory(['', ''], '42', judge, rng)).toBeOneOf([0, 1]);
    // A task it cannot read: the majority answer.
    expect(pickTrajectory(['3', '4', '4'], undefined, judge, rng)).toBe(1);
  });
});

describe('simulated plan judge', () => {
  it('never prefers an invalid plan and agrees with itself', async () => {
    const { environment, task } = await setup({ planNoise: 0.5, imaginedRuns: 4 });
    const messages = buildPlanJudgeMessages(task.question, ['INVALID PLAN: cycle', COT.replace('cot', 'sc'), 'INVALID PLAN: json_syntax']);
    for (let seed = 0; seed < 20; seed++) {
      const response = await environment.provider.chat({ messages, slot: 'judge', seed });
      expect(parseJudgeChoice(response.text, 3)).toBe(1);
    }
  });

  it('without noise it picks the plan that succeeds most in its imagination', async () => {
    const { environment, task } = await setup({ planNoise: 0, imaginedRuns: 8 });
    // Self-consistency over a large tier against a direct one-call cot on the small tier.
    const strong = JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'sc', input: '', params: { samples: 5, model: 'sim-worker-large' } }], edges: [], answer: 'A' });
    const weak = JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'cot', input: '', params: { model: 'sim-worker-small', temperature: 1.5 } }], edges: [], answer: 'A' });
    const picks = new Set<number>();
    for (let seed = 0; seed < 5; seed++) {
      const response = await environment.provider.chat({ messages: buildPlanJudgeMessages(task.question, [weak, strong]), slot: 'judge', seed });
      picks.add(parseJudgeChoice(response.text, 2));
    }
    expect(picks).toEqual(new Set([1]));
  });

  it('leaves worker requests on the judge slot to the worker', async () => {
    const { environment, task } = await setup();
    const response = await environment.provider.chat({ messages: answerPrompt({ task, input: task.question }), slot: 'judge', seed: 1 });
    expect(response.model).not.toBe('sim-judge');
    expect(response.text).toContain('<answer>');
  });
});
