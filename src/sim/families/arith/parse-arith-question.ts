import { sha256 } from '../../../core/index.js';
import type { ArithGraph, Definition } from './arith-graph.js';
import { evaluateGraph } from './arith-graph.js';
import { LIST_INSTRUCTION } from './render-sentences.js';
import { QUANTITY_ID_SOURCE, quantityId } from './vocabulary.js';

/** A task question read back into its structure. */
export interface ParsedArithQuestion {
  /** Identifies the task across calls: a hash of the question text. */
  taskKey: string;
  graph: ArithGraph;
  /** True value of every quantity. */
  values: Map<string, number>;
}

const ID = `(${QUANTITY_ID_SOURCE})`;
const NAME = `the number of ${ID}`;
const DEFINED = new RegExp(`^The number of ${ID} (is|equals) (.+)\\.$`);
const HOLDS = /^([A-Z][a-z]+)'s ([a-z]+) holds (\d+) ([a-z]+) ([a-z]+)\.$/;
const THERE_ARE = /^There are (\d+) ([a-z]+) ([a-z]+) in ([A-Z][a-z]+)'s ([a-z]+)\.$/;
const NOTE = new RegExp(`^(?:A note claims|An old label says) that ${NAME} is (\\d+), but .+\\.$`);
const HOW_MANY = /^How many ([a-z]+) ([a-z]+) are in ([A-Z][a-z]+)'s ([a-z]+)\?$/;
const FIND = /^Find (.+)\.$/;
const VALUE = /^\d+$/;
const CONSTANT_RELATION = new RegExp(`^(\\d+) (times|more than|fewer than) ${NAME}$`);
const LIST_RELATION = /^(?:the sum of|the total of) (.+)$/;
const PAIR_RELATION = new RegExp(`^(?:${NAME} minus ${NAME}|the product of ${NAME} and ${NAME})$`);
const NAME_ONLY = new RegExp(`^${NAME}$`);
const SENTENCE_BREAK = /(?<=[.?])\s+/;

/** Quantity ids of "the number of A, then the number of B" (or `separator` of choice); undefined if any piece is not a name. */
function parseNameList(text: string, separator: RegExp): string[] | undefined {
  const ids: string[] = [];
  for (const piece of text.split(separator)) {
    const match = NAME_ONLY.exec(piece);
    if (match?.[1] === undefined) return undefined;
    ids.push(match[1]);
  }
  return ids;
}

/** The right-hand side of "The number of X is|equals ...". */
function parseRightHand(verb: string, text: string): Definition | undefined {
  if (verb === 'is' && VALUE.test(text)) return { kind: 'given', value: Number(text) };
  const constant = CONSTANT_RELATION.exec(text);
  if (constant !== null && verb === 'is') {
    const [, k = '', operation, parent = ''] = constant;
    const kind = operation === 'times' ? 'times' : operation === 'more than' ? 'more' : 'fewer';
    return { kind, parents: [parent], constant: Number(k) };
  }
  const list = LIST_RELATION.exec(text);
  if (list?.[1] !== undefined) {
    const isSum = (verb === 'equals') === text.startsWith('the sum of');
    const parents = parseNameList(list[1], /, | and /);
    return isSum && parents !== undefined && parents.length >= 2 ? { kind: 'sum', parents, constant: 0 } : undefined;
  }
  const pair = PAIR_RELATION.exec(text);
  if (pair !== null && verb === 'equals') {
    const [, minuend, subtrahend, left, right] = pair;
    if (minuend !== undefined && subtrahend !== undefined) return { kind: 'difference', parents: [minuend, subtrahend], constant: 0 };
    if (left !== undefined && right !== undefined) return { kind: 'product', parents: [left, right], constant: 0 };
  }
  return undefined;
}

/** Targets of a question sentence ("How many ...?" or "Find A, then B."); undefined for anything else. */
export function parseQuestionSentence(sentence: string): string[] | undefined {
  const parsed = parseSentence(sentence);
  return parsed?.type === 'question' ? parsed.targets : undefined;
}

type Sentence =
  | { type: 'definition'; id: string; definition: Definition }
  | { type: 'note'; id: string; value: number }
  | { type: 'question'; targets: string[] }
  | { type: 'instruction' };

function parseSentence(sentence: string): Sentence | undefined {
  const defined = DEFINED.exec(sentence);
  if (defined !== null) {
    const [, id = '', verb = '', rest = ''] = defined;
    const definition = parseRightHand(verb, rest);
    return definition === undefined ? undefined : { type: 'definition', id, definition };
  }
  const holds = HOLDS.exec(sentence);
  if (holds !== null) {
    const [, owner = '', container = '', value = '', adjective = '', item = ''] = holds;
    return { type: 'definition', id: quantityId({ adjective, item, owner, container }), definition: { kind: 'given', value: Number(value) } };
  }
  const thereAre = THERE_ARE.exec(sentence);
  if (thereAre !== null) {
    const [, value = '', adjective = '', item = '', owner = '', container = ''] = thereAre;
    return { type: 'definition', id: quantityId({ adjective, item, owner, container }), definition: { kind: 'given', value: Number(value) } };
  }
  const note = NOTE.exec(sentence);
  if (note !== null) return { type: 'note', id: note[1] ?? '', value: Number(note[2]) };
  const howMany = HOW_MANY.exec(sentence);
  if (howMany !== null) {
    const [, adjective = '', item = '', owner = '', container = ''] = howMany;
    return { type: 'question', targets: [quantityId({ adjective, item, owner, container })] };
  }
  const find = FIND.exec(sentence);
  if (find?.[1] !== undefined) {
    const targets = parseNameList(find[1], /, then /);
    return targets === undefined ? undefined : { type: 'question', targets };
  }
  return sentence === LIST_INSTRUCTION ? { type: 'instruction' } : undefined;
}

/**
 * Reads an arith task question (shuffled statement sentences, then the question) back into its
 * graph. Returns undefined for any text that is not exactly in the family's templates, that
 * defines a quantity twice, refers to an undefined one, or has no single question. Linear in
 * the text length: one split, then anchored regexes per sentence.
 */
export function parseArithQuestion(text: string): ParsedArithQuestion | undefined {
  const definitions = new Map<string, Definition>();
  const notes = new Map<string, number>();
  let targets: string[] | undefined;
  for (const sentence of text.trim().split(SENTENCE_BREAK)) {
    const parsed = parseSentence(sentence);
    if (parsed === undefined) return undefined;
    if (parsed.type === 'definition') {
      if (definitions.has(parsed.id)) return undefined;
      definitions.set(parsed.id, parsed.definition);
    } else if (parsed.type === 'note') {
      if (!notes.has(parsed.id)) notes.set(parsed.id, parsed.value);
    } else if (parsed.type === 'question') {
      if (targets !== undefined) return undefined;
      targets = parsed.targets;
    }
  }
  if (targets === undefined || definitions.size === 0) return undefined;
  const values = evaluateGraph(definitions);
  if (values === undefined || targets.some((id) => !values.has(id))) return undefined;
  for (const id of notes.keys()) if (!values.has(id)) return undefined;
  return { taskKey: sha256(text.trim()).slice(0, 16), graph: { definitions, notes, targets }, values };
}
