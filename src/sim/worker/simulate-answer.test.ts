import { describe, expect, it } from 'vitest';
import type { SimProblem, StepOutcome } from '../families/family.js';
import { ScenarioSchema, type ScenarioInput } from '../scenario/scenario-schema.js';
import { sigmoid } from '../../core/index.js';
import { simulateAnswer, stepLogit } from './simulate-answer.js';
import { chainQuestion, fakeFamily, lookupQuestion } from './test-fixtures/fake-family.js';

const DRAWS = 3_000;

/** Knobs these tests were designed with, fixed here so that changing a default cannot weaken them. */
const TEST_KNOBS = { stepDifficulty: 0.7, chainFatigue: 0.3, distractorPenalty: 0.4, misleadPenalty: 1.5, temperatureSlope: 0.8, sharedWrongAnswer: 0.6, handoffDifficulty: 0 };

function scenarioWith(worker: ScenarioInput['worker'] = {}) {
  return ScenarioSchema.parse({ name: 'test', seed: 11, families: {}, worker: { ...TEST_KNOBS, ...worker } });
}

function read(question: string, documents: { id: string; title: string; text: string }[] = []): SimProblem {
  const problem = fakeFamily.read({ subTask: question, originalQuestion: question, documents });
  if (problem === undefined) throw new Error(`fake family cannot read ${question}`);
  return problem;
}

/** Share of correct answers over DRAWS tasks (each its own task key), one call each. */
function accuracy(
  makeQuestion: (index: number) => string,
  options: { skill?: number; temperature?: number; bonus?: number; worker?: ScenarioInput['worker']; documents?: boolean; handoff?: boolean } = {},
): number {
  const scenario = scenarioWith(options.worker);
  let correct = 0;
  for (let index = 0; index < DRAWS; index++) {
    const question = makeQuestion(index);
    const name = /code of (\w+)/.exec(question)?.[1] ?? '';
    const problem = read(question, options.documents ? [{ id: 'd', title: name, text: '' }] : []);
    const result = simulateAnswer(problem, { scenario, skill: options.skill ?? 2, temperature: options.temperature ?? 0.3, seed: 1_000 + index, bonus: options.bonus ?? 0, handoff: options.handoff ?? false });
    if (result.answer === problem.correctAnswer) correct++;
  }
  return correct / DRAWS;
}

const chain = (length: number, extra: { notes?: number; rumour?: boolean } = {}) => (index: number) =>
  chainQuestion({ id: `t${index}`, start: index % 17, adds: Array.from({ length }, (_, step) => 1 + ((index + step) % 9)), ...extra });

describe('simulateAnswer', () => {
  it('charges a hand-off step to sub-tasks the orchestrator wrote, and only when the knob is set', () => {
    const plain = accuracy(chain(2), { skill: 3 });
    expect(accuracy(chain(2), { skill: 3, handoff: true, worker: { handoffDifficulty: 2 } })).toBeLessThan(plain - 0.05);
    expect(accuracy(chain(2), { skill: 3, handoff: true, worker: { handoffDifficulty: 0 } })).toBe(plain);
  });

  it('charges interleaved parts, recalls famous facts cheaply, and drops the penalty of a discounted statement (issue 21)', () => {
    const worker = scenarioWith({ interleavePenalty: 0.8, famousRecallPenalty: 0.5, noEvidencePenalty: 4.5, misleadPenalty: 2 }).worker;
    const call = { skill: 3, temperature: 0.3, bonus: 0 };
    const compute = { key: 'q', kind: 'compute', difficulty: 1, evidence: 'not_needed', misled: false } as const;
    const one = stepLogit(worker, { distractorCount: 0 }, compute, 0, call);
    expect(stepLogit(worker, { distractorCount: 0, parts: 3 }, compute, 0, call)).toBeCloseTo(one - 1.6, 10);
    expect(stepLogit({ ...worker, interleavePenalty: 0 }, { distractorCount: 0, parts: 3 }, compute, 0, call)).toBeCloseTo(one, 10);
    const recall = { key: 'h', kind: 'lookup', difficulty: 1, evidence: 'absent', misled: false } as const;
    expect(stepLogit(worker, { distractorCount: 0 }, recall, 0, call)).toBeCloseTo(one - 4.5, 10);
    expect(stepLogit(worker, { distractorCount: 0 }, { ...recall, famous: true }, 0, call)).toBeCloseTo(one - 0.5, 10);
    const misled = { ...compute, misled: true };
    expect(stepLogit(worker, { distractorCount: 0 }, misled, 0, call)).toBeCloseTo(one - 2, 10);
    expect(stepLogit(worker, { distractorCount: 0 }, misled, 0, { ...call, discountMisleading: true })).toBeCloseTo(one, 10);
  });

  it('a failure on a misled step takes the statement unless the call discounts it (issue 21)', () => {
    const scenario = scenarioWith({ misleadPenalty: 8 });
    const problem = read(chain(2, { rumour: true })(0));
    const outcomes: StepOutcome[] = [];
    const watched: SimProblem = { ...problem, solve: (outcome) => problem.solve((step, index) => {
      const result = outcome(step, index);
      if (step.misled) outcomes.push(result);
      return result;
    }) };
    for (let seed = 0; seed < 20; seed++) simulateAnswer(watched, { scenario, skill: 0, temperature: 0.3, seed });
    expect(outcomes.length).toBe(20);
    expect(outcomes.every((outcome) => !outcome.ok && outcome.planted)).toBe(true);
    outcomes.length = 0;
    for (let seed = 0; seed < 20; seed++) simulateAnswer(watched, { scenario, skill: -6, temperature: 0.3, seed, discountMisleading: true });
    expect(outcomes.some((outcome) => !outcome.ok)).toBe(true);
    expect(outcomes.every((outcome) => outcome.ok || !outcome.planted)).toBe(true);
  });

  it('gets a one-step problem right with probability sigmoid(logit), whatever the correlation', () => {
    for (const correlation of [0, 0.5, 1]) {
      const scenario = scenarioWith({ correlation });
      const step = read(chain(1)(0)).steps[0];
      if (step === undefined) throw new Error('no step');
      const expected = sigmoid(stepLogit(scenario.worker, { distractorCount: 0 }, step, 0, { skill: 1, temperature: 0.3, bonus: 0 }));
      expect(accuracy(chain(1), { skill: 1, worker: { correlation } })).toBeCloseTo(expected, 1);
    }
  });

  it('falls with more steps, distractors, misleading statements and temperature', () => {
    const base = accuracy(chain(2), { skill: 3 });
    expect(accuracy(chain(6), { skill: 3 })).toBeLessThan(base - 0.1);
    expect(accuracy(chain(2, { notes: 8 }), { skill: 3 })).toBeLessThan(base - 0.1);
    expect(accuracy(chain(2, { rumour: true }), { skill: 3 })).toBeLessThan(base - 0.1);
    expect(accuracy(chain(2), { skill: 3, temperature: 1.2 })).toBeLessThan(base - 0.1);
  });

  it('rises with tier skill and with a refine bonus', () => {
    const small = accuracy(chain(4), { skill: 2 });
    expect(accuracy(chain(4), { skill: 4 })).toBeGreaterThan(small + 0.15);
    expect(accuracy(chain(4), { skill: 2, bonus: 1 })).toBeGreaterThan(small + 0.05);
  });

  it('rises when a lookup fact is in context', () => {
    const question = (index: number) => lookupQuestion(`l${index}`, 'Ada');
    const without = accuracy(question, { skill: 3 });
    const withEvidence = accuracy(question, { skill: 3, documents: true });
    expect(withEvidence).toBeGreaterThan(0.85);
    expect(without).toBeLessThan(0.3);
  });

  it('makes samples on the same task agree far more often with correlation 1 than with 0', () => {
    const agreement = (correlation: number) => {
      const scenario = scenarioWith({ correlation });
      let agree = 0;
      let pairs = 0;
      for (let task = 0; task < 300; task++) {
        const problem = read(chain(4)(task));
        const answers = Array.from({ length: 5 }, (_, sample) => simulateAnswer(problem, { scenario, skill: 2, temperature: 0.7, seed: task * 100 + sample }).answer);
        for (let a = 0; a < answers.length; a++) {
          for (let b = a + 1; b < answers.length; b++) {
            pairs++;
            if (answers[a] === answers[b]) agree++;
          }
        }
      }
      return agree / pairs;
    };
    const independent = agreement(0);
    const correlated = agreement(1);
    expect(correlated).toBeGreaterThan(independent + 0.3);
    expect(correlated).toBeGreaterThan(3 * independent);
  });

  it('fails every step after the first failing one when the shared latent is per task and rho is 1', () => {
    const scenario = scenarioWith({ correlation: 1, correlationScope: 'task' });
    let failures = 0;
    for (let task = 0; task < 500; task++) {
      const problem = read(chain(4)(task));
      const outcomes: StepOutcome[] = [];
      const recording: SimProblem = { ...problem, solve: (outcome) => problem.solve((step, index) => { const result = outcome(step, index); outcomes.push(result); return result; }) };
      simulateAnswer(recording, { scenario, skill: 2, temperature: 0.3, seed: task });
      const firstFailure = outcomes.findIndex((outcome) => !outcome.ok);
      if (firstFailure === -1) continue;
      failures++;
      // Later steps have lower logits (chain fatigue), so a common latent fails them too.
      expect(outcomes.slice(firstFailure).every((outcome) => !outcome.ok)).toBe(true);
    }
    expect(failures).toBeGreaterThan(50);
  });

  it('draws wrong values from the shared stream per sharedWrongAnswer', () => {
    const distinctWrong = (sharedWrongAnswer: number) => {
      const scenario = scenarioWith({ correlation: 1, sharedWrongAnswer });
      const problem = read(lookupQuestion('w', 'Bea'));
      const wrong = new Set<string>();
      for (let seed = 0; seed < 200; seed++) {
        const { answer } = simulateAnswer(problem, { scenario, skill: 0, temperature: 0.3, seed });
        if (answer !== problem.correctAnswer) wrong.add(answer);
      }
      return wrong.size;
    };
    expect(distinctWrong(1)).toBe(1);
    expect(distinctWrong(0)).toBeGreaterThan(20);
  });

  it('is a pure function of its inputs and varies with the seed', () => {
    const scenario = scenarioWith();
    const problem = read(chain(8)(3));
    const run = (seed: number) => simulateAnswer(problem, { scenario, skill: 1, temperature: 1, seed });
    expect(run(5)).toEqual(run(5));
    expect(run(5).stepsWorked).toBe(8);
    const answers = new Set(Array.from({ length: 20 }, (_, seed) => run(seed).answer));
    expect(answers.size).toBeGreaterThan(1);
  });
});
