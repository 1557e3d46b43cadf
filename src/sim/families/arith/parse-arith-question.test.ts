import { describe, expect, it } from 'vitest';
import { ArithFamilySchema } from '../../scenario/scenario-schema.js';
import { generateArithTask } from './generate-arith-tasks.js';
import { parseArithQuestion } from './parse-arith-question.js';

const WIDE = ArithFamilySchema.parse({ depth: [1, 12], breadth: [1, 4], parallel: [1, 4], horizon: [1, 4], distractors: [0, 20], misleading: [0, 4] });

describe('parseArithQuestion', () => {
  it('recovers exactly the generated graph and its values', () => {
    for (let index = 0; index < 200; index++) {
      const { task, structure } = generateArithTask(WIDE, 31, index, 'train');
      const parsed = parseArithQuestion(task.question);
      expect(parsed?.graph).toEqual(structure.graph);
      expect(parsed?.values).toEqual(structure.values);
    }
  });

  it('reads every template', () => {
    const text = [
      "Alice's basket holds 7 red apples.",
      "There are 3 green pears in Bob's box.",
      "The number of blue coins in Carol's jar is 4.",
      "The number of pink beads in Dave's tin equals the sum of the number of red apples in Alice's basket, the number of green pears in Bob's box and the number of blue coins in Carol's jar.",
      "The number of gray cards in Erin's bag is the total of the number of red apples in Alice's basket and the number of green pears in Bob's box.",
      "The number of white shells in Frank's tray equals the number of red apples in Alice's basket minus the number of green pears in Bob's box.",
      "The number of black stamps in Grace's sack is 3 times the number of blue coins in Carol's jar.",
      "The number of brown plums in Heidi's chest is 5 more than the number of blue coins in Carol's jar.",
      "The number of orange lemons in Ivan's crate is 2 fewer than the number of blue coins in Carol's jar.",
      "The number of golden tickets in Judy's drawer equals the product of the number of red apples in Alice's basket and the number of green pears in Bob's box.",
      "A note claims that the number of pink beads in Dave's tin is 15, but the note was written before the last delivery.",
      "An old label says that the number of black stamps in Grace's sack is 11, but the label is out of date.",
      "How many pink beads are in Dave's tin?",
    ].join(' ');
    const parsed = parseArithQuestion(text);
    expect(parsed?.graph.targets).toEqual(["pink beads in Dave's tin"]);
    expect(parsed?.graph.definitions.get("pink beads in Dave's tin")).toEqual({
      kind: 'sum',
      parents: ["red apples in Alice's basket", "green pears in Bob's box", "blue coins in Carol's jar"],
      constant: 0,
    });
    expect(Object.fromEntries(parsed?.values ?? [])).toEqual({
      "red apples in Alice's basket": 7,
      "green pears in Bob's box": 3,
      "blue coins in Carol's jar": 4,
      "pink beads in Dave's tin": 14,
      "gray cards in Erin's bag": 10,
      "white shells in Frank's tray": 4,
      "black stamps in Grace's sack": 12,
      "brown plums in Heidi's chest": 9,
      "orange lemons in Ivan's crate": 2,
      "golden tickets in Judy's drawer": 21,
    });
    expect(Object.fromEntries(parsed?.graph.notes ?? [])).toEqual({ "pink beads in Dave's tin": 15, "black stamps in Grace's sack": 11 });
  });

  it('reads a multi-target question', () => {
    const text =
      "Alice's basket holds 7 red apples. The number of blue coins in Carol's jar is 4 more than the number of red apples in Alice's basket. Find the number of red apples in Alice's basket, then the number of blue coins in Carol's jar. Give the answers in that order, separated by commas.";
    expect(parseArithQuestion(text)?.graph.targets).toEqual(["red apples in Alice's basket", "blue coins in Carol's jar"]);
  });

  it.each([
    ['another kind of question', 'Which company did the founder of Acme work for before 1990?'],
    ['an unknown sentence', "Alice's basket holds 7 red apples. It is raining. How many red apples are in Alice's basket?"],
    ['no question', "Alice's basket holds 7 red apples."],
    ['two questions', "Alice's basket holds 7 red apples. How many red apples are in Alice's basket? How many red apples are in Alice's basket?"],
    ['a quantity defined twice', "Alice's basket holds 7 red apples. The number of red apples in Alice's basket is 8. How many red apples are in Alice's basket?"],
    ['an undefined parent', "The number of red apples in Alice's basket is 2 more than the number of blue coins in Carol's jar. How many red apples are in Alice's basket?"],
    ['an undefined target', "Alice's basket holds 7 red apples. How many blue coins are in Carol's jar?"],
    ['a cycle', "The number of red apples in Alice's basket is 2 more than the number of blue coins in Carol's jar. The number of blue coins in Carol's jar is 2 more than the number of red apples in Alice's basket. How many red apples are in Alice's basket?"],
    ['a sum of one', "Alice's basket holds 7 red apples. The number of blue coins in Carol's jar equals the sum of the number of red apples in Alice's basket. How many blue coins are in Carol's jar?"],
  ])('rejects %s', (_, text) => {
    expect(parseArithQuestion(text)).toBeUndefined();
  });

  it('keys a task by its text', () => {
    const { task } = generateArithTask(WIDE, 31, 0, 'train');
    expect(parseArithQuestion(task.question)?.taskKey).toBe(parseArithQuestion(`${task.question}\n`)?.taskKey);
    expect(parseArithQuestion(task.question)?.taskKey).not.toBe(parseArithQuestion(generateArithTask(WIDE, 31, 1, 'train').task.question)?.taskKey);
  });
});
