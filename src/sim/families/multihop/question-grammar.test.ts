import { describe, expect, test } from 'vitest';
import { chainFits, parseQuestion, renderQuestion } from './question-grammar.js';
import { RELATION_NAMES, relationsFrom, type EntityType, type RelationName } from './relations.js';

function chainsFrom(type: EntityType, hops: number): RelationName[][] {
  if (hops === 0) return [[]];
  return relationsFrom(type).flatMap((relation) => {
    if (relation.terminal) return hops === 1 ? [[relation.name]] : [];
    return chainsFrom(relation.target as EntityType, hops - 1).map((rest) => [relation.name, ...rest]);
  });
}

describe('question grammar', () => {
  test('renders the brief example', () => {
    expect(renderQuestion('Zentrix Labs', ['founder', 'mentor', 'birthplace'])).toBe('In which city was the mentor of the founder of Zentrix Labs born?');
    expect(renderQuestion('Bob Smith', ['mentor'])).toBe('Who is the mentor of Bob Smith?');
    expect(renderQuestion('Bob Smith', ['employer'])).toBe('Which company employs Bob Smith?');
  });

  test('parses back every chain of 1 to 4 hops from every anchor type', () => {
    let checked = 0;
    for (const [type, anchor] of [['person', 'Bob Smith'], ['company', 'Zentrix Labs'], ['city', 'Port Ashford']] as const) {
      for (let hops = 1; hops <= 4; hops++) {
        for (const chain of chainsFrom(type, hops)) {
          expect(parseQuestion(renderQuestion(anchor, chain))).toEqual({ anchorText: anchor, chain });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  test('forgives case and spacing, keeps unknown anchors as written', () => {
    expect(parseQuestion('  who is THE MENTOR of   the founder of Acme Widgets? ')).toEqual({ anchorText: 'Acme Widgets', chain: ['founder', 'mentor'] });
    expect(parseQuestion('Who is the mentor of ${A}?')).toEqual({ anchorText: '${A}', chain: ['mentor'] });
  });

  test('rejects other text and chains whose types do not fit', () => {
    expect(parseQuestion('What is 3 + 4?')).toBeUndefined();
    expect(parseQuestion('Who is the mentor of ?')).toBeUndefined();
    expect(parseQuestion('Who is the mayor of the mentor of Bob Smith?')).toBeUndefined();
    expect(parseQuestion('Find the mentor of Bob Smith, then where they were born.')).toBeUndefined();
    expect(() => renderQuestion('Acme', ['foundedYear', 'mayor'])).toThrow(RangeError);
    expect(chainFits(['birthplace', 'country'])).toBe(true);
    expect(chainFits(['country', 'mayor'])).toBe(false);
    expect(RELATION_NAMES).toHaveLength(8);
  });
});
