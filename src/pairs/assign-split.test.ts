import { describe, expect, it } from 'vitest';
import { assignSplit } from './assign-split.js';

const fractions = { train: 0.8, validation: 0.1, test: 0.1 };

describe('assignSplit', () => {
  it('depends only on the seed and the task id', () => {
    expect(assignSplit('gsm8k-17', 0, fractions)).toBe(assignSplit('gsm8k-17', 0, fractions));
    const ids = Array.from({ length: 200 }, (_, index) => `task-${index}`);
    const alone = ids.map((id) => assignSplit(id, 1, fractions));
    const amongOthers = [...ids, ...ids.map((id) => `${id}-extra`)].map((id) => assignSplit(id, 1, fractions)).slice(0, ids.length);
    expect(amongOthers).toEqual(alone);
    expect(ids.map((id) => assignSplit(id, 2, fractions))).not.toEqual(alone);
  });

  it('follows the fractions over many sequential ids', () => {
    const counts = { train: 0, validation: 0, test: 0 };
    for (let index = 0; index < 20_000; index++) counts[assignSplit(`task-${String(index).padStart(5, '0')}`, 0, fractions)] += 1;
    expect(counts.train / 20_000).toBeCloseTo(0.8, 1);
    expect(counts.validation / 20_000).toBeCloseTo(0.1, 1);
    expect(counts.test / 20_000).toBeCloseTo(0.1, 1);
    expect(assignSplit('anything', 0, { train: 0, validation: 0, test: 1 })).toBe('test');
  });
});
