import { Rng } from '../../../core/index.js';
import { drawPopular, followRelation, valueName, type KbValue, type KnowledgeBase } from './knowledge-base.js';
import { HOBBIES, LANDMARKS, PRODUCTS, TOPICS, TRAITS } from './name-pools.js';
import { fillTemplate, relationsFrom, RELATION_NAMES, type EntityType, type RelationName } from './relations.js';

export interface KbDocument {
  id: string;
  title: string;
  text: string;
}

/** The knowledge base written out as documents a retriever can search. */
export interface KbCorpus {
  documents: KbDocument[];
  /** The sentence that states each fact, by relation and subject index (it sits in the subject's document). */
  factSentences: Readonly<Record<RelationName, readonly string[]>>;
  /** Entities and values each document mentions, so wrong answers can come from what a model read. */
  mentions: ReadonlyMap<string, readonly KbValue[]>;
}

const FILLERS: Readonly<Record<EntityType, readonly ((name: string, rng: Rng) => string)[]>> = {
  person: [
    (name, rng) => `${name} enjoys ${rng.pick(HOBBIES)} on weekends.`,
    (name, rng) => `Colleagues describe ${name} as ${rng.pick(TRAITS)}.`,
    (name, rng) => `${name} once gave a talk on ${rng.pick(TOPICS)}.`,
    (name, rng) => `Friends say ${name} spends long evenings reading about ${rng.pick(TOPICS)}.`,
    (name, rng) => `${name} keeps a small collection of ${rng.pick(PRODUCTS)} from the early years.`,
  ],
  company: [
    (name, rng) => `${name} makes ${rng.pick(PRODUCTS)}.`,
    (name, rng) => `${name} employs about ${rng.int(2, 90) * 10} people.`,
    (name, rng) => `Analysts often cite ${name} in reports on ${rng.pick(TOPICS)}.`,
    (name, rng) => `${name} sponsors a yearly prize for work on ${rng.pick(TOPICS)}.`,
    (name, rng) => `Its staff describe ${name} as ${rng.pick(TRAITS)} in its dealings.`,
  ],
  city: [
    (name, rng) => `${name} is known for its ${rng.pick(LANDMARKS)}.`,
    (name, rng) => `About ${rng.int(8, 900) * 1000} people live in ${name}.`,
    (name, rng) => `Visitors to ${name} rarely miss the ${rng.pick(LANDMARKS)}.`,
    (name, rng) => `${name} hosts an annual conference on ${rng.pick(TOPICS)}.`,
    (name, rng) => `Much of the economy of ${name} depends on ${rng.pick(PRODUCTS)}.`,
  ],
};

/** Filler sentences per entity document: enough that length normalisation matters, under 600 characters. */
const FILLER_RANGE = [2, 3] as const;
/** Distractor notes per person; with popular entities named in many notes, retrieval by name misses sometimes. */
const NOTES_PER_PERSON = 1;

/** Id of an entity's own document, e.g. `kb-person-17`; undefined for countries and years. */
export function entityDocumentId(value: KbValue): string | undefined {
  return value.type === 'person' || value.type === 'company' || value.type === 'city' ? `kb-${value.type}-${value.index}` : undefined;
}

/**
 * One document per entity: its facts as sentences in shuffled order plus two or three filler
 * sentences, the full name first and a short reference after (`Lanwell`, `Zentrix`). Then one
 * distractor note per person (interviews, award reports, mentoring panels, market reports,
 * family notes) that names entities, popular ones far more often, and uses the relation words
 * without stating any fact. Retrieval by name and relation is therefore realistically imperfect:
 * shared first names and surnames, firms and towns named after families, and popular entities
 * whose names are everywhere.
 */
export function renderCorpus(kb: KnowledgeBase, seed: number): KbCorpus {
  const rng = new Rng(seed);
  const documents: KbDocument[] = [];
  const mentions = new Map<string, KbValue[]>();
  const factSentences = Object.fromEntries(RELATION_NAMES.map((name) => [name, [] as string[]])) as Record<RelationName, string[]>;

  for (const type of ['person', 'company', 'city'] as const) {
    kb.names[type].forEach((name, index) => {
      const subject: KbValue = { type, index };
      const mentioned: KbValue[] = [subject];
      const slots: ({ relation: RelationName; template: string; value: string } | ((reference: string, rng: Rng) => string))[] = [];
      for (const relation of relationsFrom(type)) {
        const value = followRelation(kb, relation.name, subject);
        if (value === undefined) continue;
        slots.push({ relation: relation.name, template: rng.pick(relation.facts), value: valueName(kb, value) });
        mentioned.push(value);
      }
      slots.push(...rng.shuffle(FILLERS[type]).slice(0, rng.int(FILLER_RANGE[0], FILLER_RANGE[1])));
      // As in real articles the full name comes first, then a short reference (`Lanwell`, `Zentrix`).
      const sentences = rng.shuffle(slots).map((slot, position) => {
        const reference = position === 0 ? name : shortReference(type, name);
        if (typeof slot === 'function') return slot(reference, rng);
        const sentence = fillTemplate(slot.template, reference, slot.value);
        factSentences[slot.relation][index] = sentence;
        return sentence;
      });
      const id = `kb-${type}-${index}`;
      documents.push({ id, title: name, text: sentences.join(' ') });
      mentions.set(id, mentioned);
    });
  }

  const bySurname = new Map<string, number[]>();
  kb.names.person.forEach((name, index) => {
    const surname = surnameOf(name);
    const people = bySurname.get(surname);
    if (people === undefined) bySurname.set(surname, [index]);
    else people.push(index);
  });
  const noteCount = Math.max(5, Math.round(kb.names.person.length * NOTES_PER_PERSON));
  for (let note = 0; note < noteCount; note++) {
    const { title, text, mentioned } = renderNote(kb, bySurname, rng);
    const id = `kb-note-${note}`;
    documents.push({ id, title, text });
    mentions.set(id, mentioned);
  }
  return { documents, factSentences, mentions };
}

/** A distractor: names and relation words without facts. */
function renderNote(kb: KnowledgeBase, bySurname: ReadonlyMap<string, readonly number[]>, rng: Rng): { title: string; text: string; mentioned: KbValue[] } {
  // Distinct entities, popular ones more often; a few redraws, then whatever was found.
  const draw = (type: EntityType, count: number): KbValue[] => {
    const indices = new Set<number>();
    for (let attempt = 0; indices.size < count && attempt < count * 8; attempt++) indices.add(drawPopular(kb.byPopularity[type], rng));
    return [...indices].map((index) => ({ type, index }));
  };
  const name = (value: KbValue) => valueName(kb, value);
  const list = (values: readonly KbValue[]) =>
    values.length < 2 ? values.map(name).join('') : `${values.slice(0, -1).map(name).join(', ')} and ${name(values[values.length - 1] as KbValue)}`;
  const [city] = draw('city', 1) as [KbValue];
  const [company] = draw('company', 1) as [KbValue];
  const year = rng.int(1990, 2024);
  switch (rng.int(0, 4)) {
    case 0: {
      const [guest, ...others] = draw('person', 3) as [KbValue, ...KbValue[]];
      const openings = [
        `In a long interview in ${year}, ${name(guest)} talked about what makes a good mentor and a fair employer.`,
        `Asked in ${year} about mentors and employers, ${name(guest)} answered with stories rather than names.`,
        `${name(guest)} gave a rare ${year} interview about work, family and the founder of a small firm.`,
      ];
      return {
        title: `${rng.pick(['Conversations with', 'An evening with', 'Notes on'])} ${name(guest)}`,
        text: `${rng.pick(openings)} The talk touched on a visit to ${name(city)}, on being born elsewhere, and on a project with ${list(others)}.`,
        mentioned: [guest, ...others, city],
      };
    }
    case 1: {
      const people = draw('person', rng.int(3, 5));
      return {
        title: `${name(city)} business awards ${year}`,
        text:
          `The ${year} business awards in ${name(city)} honoured ${list(people)}. ` +
          `The mayor's office thanked ${name(company)} for hosting; founders and their mentors spoke about employers, headquarters and where they were born.`,
        mentioned: [city, ...people, company],
      };
    }
    case 2: {
      const people = draw('person', rng.int(3, 5));
      return {
        title: `${name(company).split(' ')[0]} mentoring panel`,
        text:
          `Mentors and mentees at the ${year} panel included ${list(people)}. ` +
          `Each spoke about their mentor, their employer and the city where they were born; no one named a founder.`,
        mentioned: [...people, company],
      };
    }
    case 3: {
      const companies = draw('company', rng.int(3, 4));
      const cities = draw('city', 2);
      return {
        title: `Regional market report ${year}`,
        text:
          `The ${year} report covers ${list(companies)}, asking who founded each firm, in which year it was founded and where its headquarters stand. ` +
          `It compares ${list(cities)}, their mayors and the country each city belongs to.`,
        mentioned: [...companies, ...cities],
      };
    }
    default: {
      // Family notes gather people who share a surname, the hardest case for a name query.
      const [first] = draw('person', 1) as [KbValue];
      const surname = surnameOf(name(first));
      const relatives = (bySurname.get(surname) ?? [first.index]).map((index): KbValue => ({ type: 'person', index }));
      const shown = rng.shuffle(relatives).slice(0, 4);
      return {
        title: `The ${surname} family`,
        text:
          `The ${surname} family traces its roots to ${name(city)}. Relatives include ${list(shown)}. ` +
          `Family members were born in several cities and work for firms such as ${name(company)}.`,
        mentioned: [...shown, city, company],
      };
    }
  }
}

function surnameOf(fullName: string): string {
  return fullName.slice(fullName.indexOf(' ') + 1);
}

/** How a document refers to its subject after the first sentence: surname, company stem, or the city's name. */
function shortReference(type: EntityType, name: string): string {
  if (type === 'person') return surnameOf(name);
  if (type === 'company') return name.slice(0, name.indexOf(' '));
  return name;
}
