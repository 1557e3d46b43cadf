import { describe, expect, it } from 'vitest';
import { sameValue, type KbValue } from './knowledge-base.js';
import { buildMultihopWorld } from './multihop-world.js';
import { pickWrongValue } from './pick-wrong-value.js';
import type { ValueType } from './relations.js';

describe('pickWrongValue', () => {
  const { kb, corpus } = buildMultihopWorld(60, 3);
  // Every document: whatever a failed hop reads, the answer is among the values it could grab.
  const documents = corpus.documents.map((document) => ({ id: document.id }));
  const cases: [ValueType, KbValue, KbValue][] = [
    ['country', { type: 'country', index: 2 }, { type: 'country', index: 5 }],
    ['year', { type: 'year', index: 1990 }, { type: 'year', index: 1993 }],
    ['person', { type: 'person', index: 1 }, { type: 'person', index: 4 }],
  ];

  it.each(cases)('never lands on the answer of the question when given it, a %s', (target, truth, answer) => {
    const picks = (withAnswer: boolean) => Array.from({ length: 400 }, (_, seed) => pickWrongValue(kb, corpus.mentions, target, truth, seed, documents, withAnswer ? answer : undefined));
    // Without it a failure lands on the answer by chance now and then (a value it read, a small answer space).
    expect(picks(false).some((value) => sameValue(value, answer))).toBe(true);
    const avoiding = picks(true);
    expect(avoiding.some((value) => sameValue(value, answer) || sameValue(value, truth))).toBe(false);
    expect(avoiding.every((value) => value.type === target)).toBe(true);
  });

  it('draws what it drew before the option when the answer is not given or is another type', () => {
    for (let seed = 0; seed < 50; seed++) {
      const before = pickWrongValue(kb, corpus.mentions, 'country', { type: 'country', index: 2 }, seed, documents);
      expect(pickWrongValue(kb, corpus.mentions, 'country', { type: 'country', index: 2 }, seed, documents, { type: 'year', index: 1990 })).toEqual(before);
    }
  });
});
