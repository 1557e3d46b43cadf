/** Kinds of things the knowledge base holds; `year` and `country` only ever end a chain. */
export type EntityType = 'person' | 'company' | 'city';
export type ValueType = EntityType | 'country' | 'year';

export type RelationName = 'mentor' | 'employer' | 'birthplace' | 'founder' | 'headquarters' | 'foundedYear' | 'mayor' | 'country';

/**
 * One relation of the knowledge base with every text it appears in. The question and noun-phrase
 * templates are the grammar the reader parses (see question-grammar.ts); the fact templates are
 * the sentences of the corpus; `reasoning` is the line a simulated model writes for the hop.
 * `{X}` is the subject, `{Y}` the value.
 */
export interface Relation {
  name: RelationName;
  source: EntityType;
  target: ValueType;
  /** Ends a chain: its value (a year or a country) has no relations of its own. */
  terminal: boolean;
  /** Question asking for the value, e.g. `Who is the mentor of {X}?`. */
  question: string;
  /** Noun phrase standing for the value inside a longer question; absent for terminal relations. */
  nounPhrase?: string;
  /** Ways a document states the fact; one is drawn per fact. */
  facts: readonly string[];
  reasoning: string;
  /** Words a model adds to the subject's name when it searches for this fact. */
  queryWords: string;
}

export const RELATIONS: Readonly<Record<RelationName, Relation>> = {
  mentor: {
    name: 'mentor',
    source: 'person',
    target: 'person',
    terminal: false,
    question: 'Who is the mentor of {X}?',
    nounPhrase: 'the mentor of {X}',
    facts: ["{X}'s mentor is {Y}.", '{Y} has been the mentor of {X} for years.'],
    reasoning: "{X}'s mentor is {Y}.",
    queryWords: 'mentor',
  },
  employer: {
    name: 'employer',
    source: 'person',
    target: 'company',
    terminal: false,
    question: 'Which company employs {X}?',
    nounPhrase: 'the employer of {X}',
    facts: ['{X} works for {Y}.', '{X} is employed by {Y}.', "{X}'s employer is {Y}."],
    reasoning: '{X} works for {Y}.',
    queryWords: 'employer works for',
  },
  birthplace: {
    name: 'birthplace',
    source: 'person',
    target: 'city',
    terminal: false,
    question: 'In which city was {X} born?',
    nounPhrase: 'the birthplace of {X}',
    facts: ['{X} was born in {Y}.', "{X}'s birthplace is {Y}."],
    reasoning: '{X} was born in {Y}.',
    queryWords: 'born birthplace',
  },
  founder: {
    name: 'founder',
    source: 'company',
    target: 'person',
    terminal: false,
    question: 'Who founded {X}?',
    nounPhrase: 'the founder of {X}',
    facts: ['{X} was founded by {Y}.', '{Y} is the founder of {X}.'],
    reasoning: '{X} was founded by {Y}.',
    queryWords: 'founder',
  },
  headquarters: {
    name: 'headquarters',
    source: 'company',
    target: 'city',
    terminal: false,
    question: 'In which city is {X} headquartered?',
    nounPhrase: 'the headquarters city of {X}',
    facts: ['{X} is headquartered in {Y}.', '{X} has its headquarters in {Y}.'],
    reasoning: '{X} is headquartered in {Y}.',
    queryWords: 'headquarters',
  },
  foundedYear: {
    name: 'foundedYear',
    source: 'company',
    target: 'year',
    terminal: true,
    question: 'In which year was {X} founded?',
    facts: ['{X} was founded in {Y}.', '{X} dates its founding to {Y}.'],
    reasoning: '{X} was founded in {Y}.',
    queryWords: 'founded year',
  },
  mayor: {
    name: 'mayor',
    source: 'city',
    target: 'person',
    terminal: false,
    question: 'Who is the mayor of {X}?',
    nounPhrase: 'the mayor of {X}',
    facts: ['The mayor of {X} is {Y}.', '{Y} serves as mayor of {X}.'],
    reasoning: 'The mayor of {X} is {Y}.',
    queryWords: 'mayor',
  },
  country: {
    name: 'country',
    source: 'city',
    target: 'country',
    terminal: true,
    question: 'In which country is {X} located?',
    facts: ['{X} is a city in {Y}.', '{X} lies in {Y}.'],
    reasoning: '{X} is in {Y}.',
    queryWords: 'country',
  },
};

export const RELATION_NAMES = Object.keys(RELATIONS) as RelationName[];

/** Relations whose subject is of a type, in a fixed order (so seeded draws are stable). */
export function relationsFrom(type: ValueType): Relation[] {
  return RELATION_NAMES.map((name) => RELATIONS[name]).filter((relation) => relation.source === type);
}

/** Fills `{X}` and `{Y}` of a template. */
export function fillTemplate(template: string, subject: string, value = ''): string {
  return template.replace('{X}', subject).replace('{Y}', value);
}
