import { describe, expect, it } from 'vitest';
import { Rng } from '../../../core/rng.js';
import type { Relation } from './arith-graph.js';
import { applyRelation } from './arith-graph.js';
import { wrongStep } from './wrong-step.js';

const CASES: { relation: Relation; inputs: number[] }[] = [
  { relation: { kind: 'sum', parents: ['a', 'b', 'c'], constant: 0 }, inputs: [12, 7, 30] },
  { relation: { kind: 'sum', parents: ['a', 'b'], constant: 0 }, inputs: [5, 5] },
  { relation: { kind: 'difference', parents: ['a', 'b'], constant: 0 }, inputs: [40, 13] },
  { relation: { kind: 'times', parents: ['a'], constant: 3 }, inputs: [8] },
  { relation: { kind: 'more', parents: ['a'], constant: 9 }, inputs: [4] },
  { relation: { kind: 'fewer', parents: ['a'], constant: 2 }, inputs: [3] },
  { relation: { kind: 'product', parents: ['a', 'b'], constant: 0 }, inputs: [11, 12] },
  { relation: { kind: 'more', parents: ['a'], constant: 1 }, inputs: [0] },
];

describe('wrongStep', () => {
  it.each(CASES)('gives a different, non-negative integer for $relation.kind of $inputs', ({ relation, inputs }) => {
    const correct = applyRelation(relation.kind, inputs, relation.constant);
    const expressions = new Set<string>();
    const errors = new Set<number>();
    for (let seed = 0; seed < 200; seed++) {
      const work = wrongStep(new Rng(seed), relation, inputs, correct);
      expect(work.value).not.toBe(correct);
      expect(Number.isInteger(work.value) && work.value >= 0).toBe(true);
      expect(wrongStep(new Rng(seed), relation, inputs, correct)).toEqual(work);
      expressions.add(work.expression);
      errors.add(work.value - correct);
    }
    // Both slips of the same arithmetic and a wrong operation show up.
    expect(expressions.size).toBeGreaterThan(1);
    expect(errors.size).toBeGreaterThan(3);
  });

  it('shows the operation it wrongly applied', () => {
    const relation: Relation = { kind: 'difference', parents: ['a', 'b'], constant: 0 };
    const operations = new Set<string>();
    for (let seed = 0; seed < 50; seed++) {
      const work = wrongStep(new Rng(seed), relation, [40, 13], 27);
      if (work.expression === '40 + 13') expect(work.value).toBe(53);
      else expect(work.expression).toBe('40 - 13');
      operations.add(work.expression);
    }
    expect([...operations].sort()).toEqual(['40 + 13', '40 - 13']);
  });

  it('stays a different value with non-integer inputs from odd upstream answers', () => {
    const relation: Relation = { kind: 'times', parents: ['a'], constant: 2 };
    for (let seed = 0; seed < 50; seed++) expect(wrongStep(new Rng(seed), relation, [2.5], 5).value).not.toBe(5);
  });
});
