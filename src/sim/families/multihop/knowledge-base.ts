import { Rng } from '../../../core/index.js';
import {
  CITY_ENDS,
  CITY_MODIFIERS,
  CITY_STARTS,
  COMPANY_ENDINGS,
  COMPANY_MIDDLES,
  COMPANY_ONSETS,
  COMPANY_SUFFIXES,
  COUNTRIES,
  FIRST_NAMES,
  SURNAME_ENDS,
  SURNAME_STARTS,
} from './name-pools.js';
import { RELATIONS, type EntityType, type RelationName, type ValueType } from './relations.js';

/** A value in the knowledge base: an entity by its index in its type, a country index, or a year. */
export interface KbValue {
  type: ValueType;
  /** Index within the type's name list; for `year`, the year itself. */
  index: number;
}

/**
 * The generated world behind the multihop family. Every relation is total: each person has one
 * mentor, employer and birthplace; each company one founder, headquarters and founding year;
 * each city one mayor and country. Names are unique across all entities.
 */
export interface KnowledgeBase {
  names: Readonly<Record<EntityType, readonly string[]>>;
  countries: readonly string[];
  /** Per relation, the value's index (or year) by subject index. */
  facts: Readonly<Record<RelationName, Int32Array>>;
  /** Entity indices from the most to the least talked-about (see {@link drawPopular}). */
  byPopularity: Readonly<Record<EntityType, Int32Array>>;
  /** Lower-cased entity or country name -> value. */
  byName: ReadonlyMap<string, KbValue>;
}

/** Share of companies and cities named after a family (`Lanwell Holdings`, `Ashford`). */
const SURNAME_NAMED_SHARE = 0.4;
/**
 * Exponent of the popularity draw: the most popular of n entities gets n^(-1/2.5) of the draws
 * (a fifth of 50 cities' mentions). Chosen with the corpus notes so that BM25 top-5 retrieval of
 * the needed document is high but imperfect (see the retrieval test).
 */
const POPULARITY_SKEW = 2.5;
const FOUNDING_YEARS: readonly [number, number] = [1890, 2021];

/**
 * Generates a knowledge base of `personCount` people, a quarter as many companies and a sixth as
 * many cities, from a seed. Mentors, founders, mayors, employers, birthplaces and headquarters
 * are drawn by popularity (a few people mentor many, a few firms employ many). The same seed and
 * size always give the same base.
 */
export function generateKnowledgeBase(personCount: number, seed: number): KnowledgeBase {
  const rng = new Rng(seed);
  const companyCount = Math.max(6, Math.round(personCount / 4));
  const cityCount = Math.max(6, Math.round(personCount / 6));
  const taken = new Set<string>();
  const persons = drawPersonNames(personCount, rng.fork('persons'), taken);
  const surnames = [...new Set(persons.map((name) => name.slice(name.indexOf(' ') + 1)))];
  const companies = drawCompanyNames(companyCount, surnames, rng.fork('companies'), taken);
  const cities = drawCityNames(cityCount, surnames, rng.fork('cities'), taken);
  const countries = [...COUNTRIES];

  const popularityRng = rng.fork('popularity');
  const byPopularity = {
    person: Int32Array.from(popularityRng.shuffle([...persons.keys()])),
    company: Int32Array.from(popularityRng.shuffle([...companies.keys()])),
    city: Int32Array.from(popularityRng.shuffle([...cities.keys()])),
  };
  const factRng = rng.fork('facts');
  const draw = (count: number, type: EntityType, exceptSelf = false) => {
    const values = new Int32Array(count);
    for (let index = 0; index < count; index++) {
      let value = drawPopular(byPopularity[type], factRng);
      // A mentor is someone else.
      while (exceptSelf && value === index) value = drawPopular(byPopularity[type], factRng);
      values[index] = value;
    }
    return values;
  };
  const foundedYear = new Int32Array(companyCount);
  for (let index = 0; index < companyCount; index++) foundedYear[index] = factRng.int(FOUNDING_YEARS[0], FOUNDING_YEARS[1]);
  const facts: Record<RelationName, Int32Array> = {
    mentor: draw(personCount, 'person', true),
    employer: draw(personCount, 'company'),
    birthplace: draw(personCount, 'city'),
    founder: draw(companyCount, 'person'),
    headquarters: draw(companyCount, 'city'),
    foundedYear,
    mayor: draw(cityCount, 'person'),
    country: Int32Array.from({ length: cityCount }, () => factRng.int(0, countries.length - 1)),
  };

  const byName = new Map<string, KbValue>();
  const names = { person: persons, company: companies, city: cities };
  for (const type of ['person', 'company', 'city'] as const) {
    names[type].forEach((name, index) => byName.set(name.toLowerCase(), { type, index }));
  }
  countries.forEach((name, index) => byName.set(name.toLowerCase(), { type: 'country', index }));
  return { names, countries, facts, byPopularity, byName };
}

/**
 * An entity index drawn with a heavy tail: the rank is `floor(count * u^POPULARITY_SKEW)`, so a
 * few entities are mentioned, mentored by and worked for far more than most, as in real corpora.
 */
export function drawPopular(byPopularity: Int32Array, rng: Rng): number {
  return byPopularity[Math.floor(byPopularity.length * rng.next() ** POPULARITY_SKEW)] as number;
}

/** The value a relation gives for a subject; undefined when the subject is not of the relation's type. */
export function followRelation(kb: KnowledgeBase, relation: RelationName, subject: KbValue): KbValue | undefined {
  const spec = RELATIONS[relation];
  if (subject.type !== spec.source) return undefined;
  const value = kb.facts[relation][subject.index];
  return value === undefined ? undefined : { type: spec.target, index: value };
}

/** The name a value is written as (a year as its digits). */
export function valueName(kb: KnowledgeBase, value: KbValue): string {
  if (value.type === 'year') return String(value.index);
  const name = value.type === 'country' ? kb.countries[value.index] : kb.names[value.type][value.index];
  return name ?? `unknown ${value.type}`;
}

/** Finds the entity a text names, forgiving case, spacing and a trailing period; undefined when none. */
export function lookupEntity(kb: KnowledgeBase, text: string): KbValue | undefined {
  const key = text.trim().replace(/\s+/g, ' ').replace(/\.$/, '').toLowerCase();
  const found = kb.byName.get(key);
  if (found !== undefined) return found;
  return /^\d{3,4}$/.test(key) ? { type: 'year', index: Number(key) } : undefined;
}

/** Equal values (same type and index). */
export function sameValue(a: KbValue | undefined, b: KbValue | undefined): boolean {
  return a !== undefined && b !== undefined && a.type === b.type && a.index === b.index;
}

function drawUnique(count: number, taken: Set<string>, candidate: () => string, what: string): string[] {
  const names: string[] = [];
  // The name spaces hold at least 1.4x the largest count the schema allows, so this ends quickly.
  for (let attempts = 0; names.length < count; attempts++) {
    if (attempts > count * 50) throw new RangeError(`cannot draw ${count} unique ${what} names; the name space is too small`);
    const name = candidate();
    if (taken.has(name.toLowerCase())) continue;
    taken.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

function drawPersonNames(count: number, rng: Rng, taken: Set<string>): string[] {
  const allSurnames = [...new Set(SURNAME_STARTS.flatMap((start) => SURNAME_ENDS.map((end) => start + end)))];
  // About two people per surname, so families share names and a surname alone finds several people.
  const surnameCount = Math.min(allSurnames.length, Math.max(30, Math.ceil(count / 2)));
  const surnames = rng.shuffle(allSurnames).slice(0, surnameCount);
  return drawUnique(count, taken, () => `${rng.pick(FIRST_NAMES)} ${rng.pick(surnames)}`, 'person');
}

function drawCompanyNames(count: number, surnames: readonly string[], rng: Rng, taken: Set<string>): string[] {
  const allStems = [...new Set(COMPANY_ONSETS.flatMap((onset) => COMPANY_MIDDLES.flatMap((middle) => COMPANY_ENDINGS.map((ending) => onset + middle + ending))))];
  // Fewer stems than companies, so stems recur across suffixes (`Zentrix Labs`, `Zentrix Group`).
  const stemList = rng.shuffle(allStems).slice(0, Math.min(allStems.length, Math.max(4, Math.ceil(count / 1.5))));
  // Many firms carry a family name (`Lanwell Holdings`), as real ones do.
  const stem = () => (rng.chance(SURNAME_NAMED_SHARE) ? rng.pick(surnames) : rng.pick(stemList));
  return drawUnique(count, taken, () => `${stem()} ${rng.pick(COMPANY_SUFFIXES)}`, 'company');
}

function drawCityNames(count: number, surnames: readonly string[], rng: Rng, taken: Set<string>): string[] {
  const allBases = [...new Set(CITY_STARTS.flatMap((start) => CITY_ENDS.map((end) => start + end)))];
  const bases = rng.shuffle(allBases).slice(0, Math.min(allBases.length, Math.max(6, Math.ceil(count * 0.8))));
  return drawUnique(
    count,
    taken,
    () => {
      // Toponymic surnames: a city and a family may share a name (`Ashford`).
      const base = rng.chance(SURNAME_NAMED_SHARE) ? rng.pick(surnames) : rng.pick(bases);
      const modifier = rng.chance(0.7) ? '' : rng.pick(CITY_MODIFIERS);
      return modifier === '' ? base : `${modifier} ${base}`;
    },
    'city',
  );
}
