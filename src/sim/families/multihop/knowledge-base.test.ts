import { describe, expect, test } from 'vitest';
import { MAX_RESULT_CHARS } from '../../../prompts/block-prompts.js';
import { generateKnowledgeBase, lookupEntity, valueName, type KnowledgeBase } from './knowledge-base.js';
import { renderCorpus } from './render-corpus.js';
import { RELATION_NAMES, RELATIONS } from './relations.js';

function countOf(kb: KnowledgeBase, type: string): number {
  if (type === 'country') return kb.countries.length;
  return type === 'year' ? Infinity : kb.names[type as 'person'].length;
}

describe('generateKnowledgeBase', () => {
  test.each([20, 300, 5000])('every relation is total and typed, names unique (%i people)', (people) => {
    const kb = generateKnowledgeBase(people, 11);
    expect(kb.names.person).toHaveLength(people);
    const all = [...kb.names.person, ...kb.names.company, ...kb.names.city, ...kb.countries].map((name) => name.toLowerCase());
    expect(new Set(all).size).toBe(all.length);
    for (const relation of RELATION_NAMES) {
      const spec = RELATIONS[relation];
      const values = kb.facts[relation];
      expect(values.length, relation).toBe(kb.names[spec.source].length);
      for (const value of values) {
        if (spec.target === 'year') expect(value >= 1890 && value <= 2021, `${relation} ${value}`).toBe(true);
        else expect(value >= 0 && value < countOf(kb, spec.target), `${relation} ${value}`).toBe(true);
      }
    }
    kb.facts.mentor.forEach((mentor, person) => expect(mentor).not.toBe(person));
    kb.names.company.forEach((name, index) => expect(lookupEntity(kb, ` ${name.toUpperCase()}. `)).toEqual({ type: 'company', index }));
  });

  test('the largest base the schema allows still gets unique names', () => {
    const kb = generateKnowledgeBase(100_000, 3);
    expect(new Set(kb.names.person).size).toBe(100_000);
    expect(new Set(kb.names.city).size).toBe(kb.names.city.length);
    expect(new Set(kb.names.company).size).toBe(kb.names.company.length);
  });

  test('people share first names and surnames, and some firms and cities carry a surname', () => {
    const kb = generateKnowledgeBase(300, 5);
    const firsts = new Set(kb.names.person.map((name) => name.split(' ')[0]));
    const surnames = new Set(kb.names.person.map((name) => name.split(' ').slice(1).join(' ')));
    expect(firsts.size).toBeLessThan(150);
    expect(surnames.size).toBeLessThan(200);
    expect(kb.names.company.filter((name) => surnames.has(name.split(' ')[0] as string)).length).toBeGreaterThan(5);
    expect(kb.names.city.filter((name) => surnames.has(name.split(' ').at(-1) as string)).length).toBeGreaterThan(3);
  });

  test('is deterministic in its seed', () => {
    expect(generateKnowledgeBase(200, 9)).toEqual(generateKnowledgeBase(200, 9));
    expect(generateKnowledgeBase(200, 9).names.person).not.toEqual(generateKnowledgeBase(200, 10).names.person);
  });
});

describe('renderCorpus', () => {
  const kb = generateKnowledgeBase(300, 21);
  const corpus = renderCorpus(kb, 4);
  const byId = new Map(corpus.documents.map((document) => [document.id, document]));

  test('one document per entity, titled with its name, stating each of its facts', () => {
    expect(byId.size).toBe(corpus.documents.length);
    for (const type of ['person', 'company', 'city'] as const) {
      kb.names[type].forEach((name, index) => {
        const document = byId.get(`kb-${type}-${index}`);
        expect(document?.title).toBe(name);
        expect(document?.text).toContain(name);
        for (const relation of RELATION_NAMES.filter((name) => RELATIONS[name].source === type)) {
          const sentence = corpus.factSentences[relation][index] as string;
          const value = kb.facts[relation][index] as number;
          const target = RELATIONS[relation].target;
          expect(document?.text).toContain(sentence);
          expect(sentence).toContain(valueName(kb, { type: target, index: value }));
        }
      });
    }
  });

  test('distractor notes name entities but state no fact', () => {
    const notes = corpus.documents.filter((document) => document.id.startsWith('kb-note-'));
    expect(notes.length).toBe(300);
    const sentences = RELATION_NAMES.flatMap((relation) => corpus.factSentences[relation]);
    for (const note of notes) {
      expect(sentences.some((sentence) => note.text.includes(sentence))).toBe(false);
      expect(corpus.mentions.get(note.id)?.length).toBeGreaterThan(0);
    }
  });

  test('every document fits in a search result unshortened, so a retrieved fact is always shown', () => {
    for (const document of corpus.documents) expect(document.text.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
  });
});
