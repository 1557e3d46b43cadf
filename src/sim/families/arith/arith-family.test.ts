import { describe, expect, it } from 'vitest';
import { Rng } from '../../../core/rng.js';
import type { Task } from '../../../core/task.js';
import { ArithFamilySchema } from '../../scenario/scenario-schema.js';
import type { Granularity, SimProblem, SimFamily, TextDecomposition } from '../family.js';
import { createArithFamily } from './arith-family.js';
import type { GeneratedArith } from './generate-arith-graph.js';
import { generateArithTask } from './generate-arith-tasks.js';

const WIDE = ArithFamilySchema.parse({ depth: [1, 8], breadth: [1, 4], parallel: [1, 4], horizon: [1, 4], distractors: [0, 12], misleading: [0, 3] });
const family = createArithFamily(WIDE);
const SAMPLES = Array.from({ length: 120 }, (_, index) => generateArithTask(WIDE, 2024, index, 'test'));
const GRANULARITIES: Granularity[] = ['whole', 'steps', 'components'];
const allOk = () => ({ ok: true }) as const;

function read(task: Task, subTask = task.question): SimProblem {
  const problem = family.read({ subTask, originalQuestion: task.question, documents: [] });
  if (problem === undefined) throw new Error(`not read: ${subTask}`);
  return problem;
}

/** Runs a decomposition as an executor would: sub-questions in order, `${id}` answers substituted. */
function execute(task: Task, decomposition: TextDecomposition, answerOf = (_id: string, answer: string) => answer) {
  const answers: Record<string, string> = {};
  const texts: Record<string, string> = {};
  for (const subQuestion of decomposition.subQuestions) {
    for (const dependency of subQuestion.dependsOn) expect(answers[dependency], `${subQuestion.id} runs after ${dependency}`).toBeDefined();
    texts[subQuestion.id] = subQuestion.render(answers);
    const problem = read(task, texts[subQuestion.id]);
    expect(problem.recognised).toBe(true);
    answers[subQuestion.id] = answerOf(subQuestion.id, problem.solve(allOk).answer);
  }
  return { answers, texts, final: answers[decomposition.finalId] };
}

function mainTarget(structure: GeneratedArith): string {
  return structure.graph.targets[structure.graph.targets.length - 1] ?? '';
}

describe('createArithFamily', () => {
  it('solves whole tasks to the gold answer when every step is right', () => {
    for (const { task, structure } of SAMPLES) {
      const problem = read(task);
      expect(problem.recognised).toBe(true);
      expect(problem.correctAnswer).toBe(task.answer);
      expect(problem.solve(allOk).answer).toBe(task.answer);
      expect(problem.steps).toHaveLength(task.metadata.steps as number);
      expect(problem.distractorCount).toBe(structure.axes.distractors);
      expect(problem.steps.filter((step) => step.misled)).toHaveLength(structure.axes.misleading);
      expect(problem.taskKey).toBe(read(task).taskKey);
    }
  });

  it('solves every sub-question of every decomposition with correct upstream answers', () => {
    for (const { task } of SAMPLES) {
      for (const granularity of GRANULARITIES) {
        const decomposition = family.decompose(task.question, granularity);
        if (decomposition === undefined) throw new Error('no decomposition');
        const ids = decomposition.subQuestions.map((subQuestion) => subQuestion.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toContain(decomposition.finalId);
        const run = execute(task, decomposition);
        expect(run.final, `${granularity}: ${task.id}`).toBe(task.answer);
        for (const subQuestion of decomposition.subQuestions) {
          expect(read(task, run.texts[subQuestion.id]).correctAnswer).toBe(run.answers[subQuestion.id]);
        }
      }
    }
  });

  it('splits by steps into the relations on the answer path only, each a single step', () => {
    for (const { task, structure } of SAMPLES) {
      const decomposition = family.decompose(task.question, 'steps');
      const onPath = structure.needed.filter((id) => structure.graph.definitions.get(id)?.kind !== 'given');
      const listing = structure.graph.targets.length > 1 ? 1 : 0;
      expect(decomposition?.subQuestions).toHaveLength(onPath.length + listing);
      const { texts } = execute(task, decomposition as TextDecomposition);
      const computed = Object.values(texts).flatMap((text) => read(task, text).steps.map((step) => step.key));
      expect(new Set(computed)).toEqual(new Set(onPath));
      expect(computed).toHaveLength(onPath.length);
    }
  });

  it('splits by components into one sub-question per independent part plus a combine', () => {
    for (const { task, structure } of SAMPLES) {
      const decomposition = family.decompose(task.question, 'components') as TextDecomposition;
      if (structure.axes.parallel === 1) continue;
      const final = decomposition.subQuestions.find((subQuestion) => subQuestion.id === decomposition.finalId);
      const tops = (structure.graph.definitions.get(mainTarget(structure)) as { parents: readonly string[] }).parents;
      // Other asked quantities get a sub-question of their own unless they are a component's top.
      const extraTargets = structure.graph.targets.slice(0, -1).filter((target) => !tops.includes(target)).length;
      expect(decomposition.subQuestions.length).toBe(structure.axes.parallel + extraTargets + 1);
      expect(final?.dependsOn).toHaveLength(structure.axes.parallel + extraTargets);
      const { texts } = execute(task, decomposition);
      const combine = read(task, texts[decomposition.finalId]);
      expect(combine.steps.map((step) => step.key)).toEqual([mainTarget(structure)]);
    }
    const whole = SAMPLES.find(({ structure }) => structure.axes.depth === 1);
    const decomposition = family.decompose(whole?.task.question ?? '', 'components');
    expect(decomposition?.subQuestions.map((subQuestion) => subQuestion.render({}))).toEqual([whole?.task.question]);
  });

  it('carries a wrong upstream answer through, while correctAnswer stays the truth', () => {
    let checked = 0;
    for (const { task } of SAMPLES) {
      const decomposition = family.decompose(task.question, 'steps') as TextDecomposition;
      if (decomposition.subQuestions.length < 2) continue;
      const first = decomposition.subQuestions[0]?.id ?? '';
      const run = execute(task, decomposition, (id, answer) => (id === first ? String(Number(answer) + 1) : answer));
      expect(run.final).not.toBe(task.answer);
      const finalText = run.texts[decomposition.finalId] ?? '';
      expect(read(task, finalText).correctAnswer).toBe(task.answer);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('ignores a given that is not a number and works that quantity out instead', () => {
    for (const { task } of SAMPLES) {
      const decomposition = family.decompose(task.question, 'steps') as TextDecomposition;
      if (decomposition.subQuestions.length < 2) continue;
      const run = execute(task, decomposition, (id, answer) => (id === decomposition.finalId ? answer : 'I am not sure'));
      expect(run.final).toBe(task.answer);
      expect(read(task, run.texts[decomposition.finalId]).steps.length).toBeGreaterThan(0);
    }
  });

  it('gives a plausible wrong answer when a step fails, the same one for the same seed', () => {
    for (const { task, structure } of SAMPLES) {
      const problem = read(task);
      const last = problem.steps.length - 1;
      const failLast = (seed: number) => problem.solve((step, index) => (index === last ? { ok: false, wrongSeed: seed, planted: step.misled } : { ok: true }));
      const wrong = failLast(7);
      expect(wrong).toEqual(failLast(7));
      expect(wrong.answer).not.toBe(task.answer);
      const gold = Number(task.answer?.split(', ').at(-1));
      const given = Number(wrong.answer.split(', ').at(-1));
      expect(Number.isInteger(given) && given >= 0).toBe(true);
      const planted = structure.graph.notes.get(mainTarget(structure));
      if (planted !== undefined) expect(given).toBe(planted);
      else expect(Math.abs(given - gold)).toBeLessThanOrEqual(Math.max(10, gold * 10));
      expect(wrong.reasoning).toHaveLength(problem.steps.length);
      expect(wrong.reasoning.at(-1)).toMatch(/^The number of .+ is .+\.$/);
    }
  });

  it('propagates an early failure to the answer', () => {
    // Every relation is one-to-one in each input (all true values are >= 1), so nothing can absorb the error.
    for (const { task } of SAMPLES) {
      const problem = read(task);
      for (const wrongSeed of [11, 12, 13]) {
        expect(problem.solve((step, index) => (index === 0 ? { ok: false, wrongSeed, planted: step.misled } : { ok: true })).answer).not.toBe(task.answer);
      }
    }
  });

  it('reads an unrecognised sub-task as the whole task', () => {
    for (const { task } of SAMPLES.slice(0, 30)) {
      const whole = read(task);
      for (const subTask of ['Summarise the story in one sentence.', "Find the number of red unicorns in Nobody's castle."]) {
        const problem = read(task, subTask);
        expect(problem.recognised).toBe(false);
        expect(problem.steps).toEqual(whole.steps);
        expect(problem.correctAnswer).toBe(task.answer);
      }
    }
  });

  it('writes reasoning lines with the arithmetic', () => {
    const task = {
      id: 't',
      suite: 'arith',
      question:
        "Alice's basket holds 7 red apples. The number of blue coins in Carol's jar is 3 times the number of red apples in Alice's basket. The number of pink beads in Dave's tin equals the sum of the number of red apples in Alice's basket and the number of blue coins in Carol's jar. How many pink beads are in Dave's tin?",
      metadata: {},
    };
    expect(read(task).solve(allOk)).toEqual({
      answer: '28',
      reasoning: ["The number of blue coins in Carol's jar is 3 * 7 = 21.", "The number of pink beads in Dave's tin is 7 + 21 = 28."],
    });
    expect(read(task).steps.map((step) => step.difficulty)).toEqual([1.2, 1.25]);
    const given = read(task, "Find the number of pink beads in Dave's tin. Known: the number of pink beads in Dave's tin is 30.");
    expect(given.solve(allOk)).toEqual({ answer: '30', reasoning: ["The number of pink beads in Dave's tin is 30 (given)."] });
    expect(given.correctAnswer).toBe('28');
    expect(given.distractorCount).toBe(3);
  });

  it('leaves other families alone and needs no documents', () => {
    const view = { subTask: 'Who founded Acme?', originalQuestion: 'Who founded Acme?', documents: [] };
    expect(family.read(view)).toBeUndefined();
    expect(family.decompose('Who founded Acme?', 'steps')).toBeUndefined();
    expect(family.corpus()).toEqual([]);
    expect(read(SAMPLES[0]?.task as Task).nextQuery()).toBeUndefined();
    expect(family.name).toBe('arith');
  });

  it('generates through the family with the validated config', () => {
    const tasks = family.generate({ count: 5, rng: new Rng(9), idPrefix: 'train' });
    expect(tasks).toHaveLength(5);
    expect(tasks.every((task) => task.suite === 'arith')).toBe(true);
    expect(() => createArithFamily({ ...WIDE, depth: [5, 2] })).toThrow(/families\.arith/);
  });
});

describe.each(GRANULARITIES)('decompose %s', (granularity) => {
  it('is deterministic', () => {
    const other: SimFamily = createArithFamily(WIDE);
    for (const { task } of SAMPLES.slice(0, 20)) {
      const render = (decomposition: TextDecomposition | undefined) =>
        decomposition?.subQuestions.map((subQuestion) => [subQuestion.id, subQuestion.dependsOn, subQuestion.render({})]);
      expect(render(other.decompose(task.question, granularity))).toEqual(render(family.decompose(task.question, granularity)));
    }
  });
});
