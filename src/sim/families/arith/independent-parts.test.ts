import { describe, expect, it } from 'vitest';
import { ArithFamilySchema } from '../../scenario/scenario-schema.js';
import { createArithFamily } from './arith-family.js';
import { generateArithTask } from './generate-arith-tasks.js';

const SPLIT = ArithFamilySchema.parse({ depth: [3, 4], breadth: [1, 1], parallel: [2, 2], distractors: [0, 2], misleading: [0, 0] });
const CHAIN = ArithFamilySchema.parse({ depth: [3, 5], breadth: [1, 1], parallel: [1, 1], distractors: [0, 2], misleading: [0, 0] });
const NOTED = ArithFamilySchema.parse({ depth: [3, 5], misleading: [1, 1] });

describe('arith task structure (issue 21)', () => {
  it('labels tasks by what their text shows: a planted note, independent parts, or one chain', () => {
    for (let index = 0; index < 30; index++) {
      expect(generateArithTask(SPLIT, 5, index, 'test').task.metadata.axes).toMatchObject({ structure: 'split' });
      expect(generateArithTask(CHAIN, 5, index, 'test').task.metadata.axes).toMatchObject({ structure: 'chain' });
      expect(generateArithTask(NOTED, 5, index, 'test').task.metadata.axes).toMatchObject({ structure: 'note' });
    }
  });

  it('a call on the whole split question keeps two parts apart; a call on one component or one step keeps one', () => {
    const family = createArithFamily(SPLIT);
    for (let index = 0; index < 30; index++) {
      const { task } = generateArithTask(SPLIT, 5, index, 'test');
      const view = (subTask: string) => ({ subTask, originalQuestion: task.question, documents: [] });
      expect(family.read(view(task.question))?.parts).toBe(2);
      const components = family.decompose(task.question, 'components');
      const steps = family.decompose(task.question, 'steps');
      for (const decomposition of [components, steps]) {
        for (const subQuestion of decomposition?.subQuestions ?? []) {
          const text = subQuestion.render(Object.fromEntries(subQuestion.dependsOn.map((id) => [id, '7'])));
          expect(family.read(view(text))?.parts, text).toBe(1);
        }
      }
      expect(components?.subQuestions.length).toBe(3);
    }
  });

  it('a chain question is one part', () => {
    const family = createArithFamily(CHAIN);
    for (let index = 0; index < 30; index++) {
      const { task } = generateArithTask(CHAIN, 5, index, 'test');
      expect(family.read({ subTask: task.question, originalQuestion: task.question, documents: [] })?.parts).toBe(1);
    }
  });
});
