/**
 * What the wording of a task shows about its structure, as bucketed indicator names: how many
 * quantities and relations it states, how many hops a question chains, how many entities it
 * names, what form the question takes. The names are crossed with the plan's shape
 * (`plan-shape.ts`) so that a linear head can learn "decompose long chains of relations" or
 * "search when a question chains facts about named entities". Every rule reads surface text
 * only (English): it never sees task metadata.
 */

import { readQuantities, type QuantityReading } from './quantity-graph.js';

const WORD = /[A-Za-z0-9'’-]+/g;
const NUMBER = /(?<![A-Za-z])\d+(?:[.,]\d+)*/g;
const SENTENCE_END = /[.?!](?:\s|$)/g;
/** "the X of the Y of ..." noun-phrase chains: the usual wording of a multi-hop question. */
const RELATION_CHAIN = /(?:\bthe [a-z]+(?: [a-z]+)? of )+/gi;
const POSSESSIVE = /\b\w+['’]s\b/g;
/** Words that state how one quantity follows from others. */
const RELATION_WORDS =
  /\b(?:times|plus|minus|sum|total|each|per|twice|thrice|half|double|triple|difference|product|equals?|more than|fewer than|less than|multiplied|divided|altogether|combined|remainder|ratio|percent|average)\b/gi;
/** Words of facts about people, places and organisations. */
const ENTITY_RELATION_WORDS =
  /\b(?:born|birthplace|founded|founder|city|country|capital|company|employs?|employer|director|headquartered|located|spouse|married|studied|university|nationality|member|author|film|album|mentor|mayor|president|team|band)\b/gi;
/** Statements the text itself casts doubt on (task shape version 1 read only the words of `HEDGES_V1`). */
const HEDGES_V1 = /\b(?:note|notes|claims?|claimed|reportedly|allegedly|rumou?red|supposedly|mistakenly|however)\b/gi;
const HEDGES = /\b(?:note|notes|claims?|claimed|reportedly|allegedly|rumou?rs?|rumou?red|gossip|tabloid|supposedly|mistakenly|however|out of date|outdated|never confirmed)\b/gi;
/** Capitalised words that do not open a sentence: a rough count of named entities. */
const NAME_INSIDE_SENTENCE = /(?<=[a-z,;:] )[A-Z][a-z]+/g;
const MATH_NOTATION = /[\\^=+*/]|\$|\bsqrt\b|\bfrac\b/g;
const SEVERAL = /\?[^?]*\?|\brespectively\b|\bin (?:this |that )?order\b|\bseparated by commas\b|\blist\b/i;
const COMPARISON = /\b(?:larger|smaller|older|younger|earlier|later|bigger|both|same|compare|greater|higher|lower|more|less)\b/i;

/** The reading `taskShape` gives: 2 reads the quantity graph and more words of doubt (issue 21); 1 is what model files of format 1 and 2 were trained with. */
export type TaskShapeVersion = 1 | 2;
export const TASK_SHAPE_VERSION: TaskShapeVersion = 2;

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/** Buckets 0, 1, 2, 3-4, 5-8, 9-16, 17+: fine where small counts matter, coarse beyond. */
export function countBucket(value: number): string {
  if (value <= 2) return String(value);
  if (value <= 4) return '3-4';
  if (value <= 8) return '5-8';
  if (value <= 16) return '9-16';
  return '17+';
}

/**
 * The last question sentence: from after the last `.`, `?` or `!` before the last `?`, up to
 * and including it (the last match of /[^.?!]*\?/g, found without running that regex from every
 * position); undefined when there is no `?`.
 */
function lastQuestion(text: string): string | undefined {
  const end = text.lastIndexOf('?');
  if (end === -1) return undefined;
  let start = end;
  while (start > 0) {
    const code = text.charCodeAt(start - 1);
    if (code === 46 || code === 63 || code === 33) break;
    start--;
  }
  return text.slice(start, end + 1);
}

/** The question form, from the last question sentence (or the text's start when none). */
function questionForm(text: string): string {
  const asked = (lastQuestion(text) ?? text.slice(0, 120)).trim().toLowerCase();
  const form = /^(how many|how much|in which year|in what year|in which|in what|who|whom|whose|which|what|where|when|why|how|is|are|was|were|does|did|do|can)\b/.exec(asked);
  return form ? form[1]!.replace(/ /g, '_') : 'other';
}

/**
 * Shape names of a task text, e.g. `numbers=5-8`, `relation_chain=2`, `question=how_many`.
 * Always includes `task=any`, so a cross with it gives every plan feature its own prior.
 *
 * @example
 * taskShape('Who is the mentor of the mentor of Ann Lee?') // ['task=any', 'words=9-16', ..., 'relation_chain=2', 'question=who']
 */
export function taskShape(text: string, version: TaskShapeVersion = TASK_SHAPE_VERSION): string[] {
  let longestChain = 0;
  for (const chain of text.match(RELATION_CHAIN) ?? []) longestChain = Math.max(longestChain, count(chain, / of /g));
  const sentences = Math.max(1, count(text.trim(), SENTENCE_END));
  const names = [
    'task=any',
    `words=${countBucket(Math.floor(count(text, WORD) / 8))}`,
    `sentences=${countBucket(sentences)}`,
    `numbers=${countBucket(count(text, NUMBER))}`,
    `relation_words=${countBucket(count(text, RELATION_WORDS))}`,
    `entity_words=${countBucket(count(text, ENTITY_RELATION_WORDS))}`,
    `relation_chain=${Math.min(longestChain, 5)}`,
    `possessives=${countBucket(count(text, POSSESSIVE))}`,
    `names=${countBucket(count(text, NAME_INSIDE_SENTENCE))}`,
    `hedges=${countBucket(count(text, version === 1 ? HEDGES_V1 : HEDGES))}`,
    `math_notation=${countBucket(count(text, MATH_NOTATION))}`,
    `question=${questionForm(text)}`,
  ];
  if (SEVERAL.test(text)) names.push('asks_several');
  if (COMPARISON.test(text)) names.push('comparison');
  // Version 1 (model files of format 1 and 2) did not read the quantity graph.
  if (version !== 1) names.push(...quantityShape(readQuantities(text)));
  return names;
}

/**
 * The word problem's quantity graph (`readQuantities`) as shape names: how deep and how wide the
 * asked computation is, what it does not need, and whether a doubted statement lies on its path;
 * `quantity_structure` joins the last two (doubted beats split beats chain) so a linear head can
 * weigh a plan by it directly. Only `quantities=0` for text without quantity phrases.
 */
function quantityShape(reading: QuantityReading): string[] {
  if (reading.quantities === 0) return ['quantities=0'];
  const parts = reading.parts >= 3 ? '3+' : String(reading.parts);
  const structure = reading.doubtedOnPath > 0 ? 'doubted' : reading.parts > 1 ? 'split' : 'chain';
  return [
    `quantities=${countBucket(reading.quantities)}`,
    `asked_depth=${countBucket(reading.depth)}`,
    `asked_parts=${parts}`,
    `needed=${countBucket(reading.needed)}`,
    `unused=${countBucket(reading.unused)}`,
    `doubted_on_path=${Math.min(reading.doubtedOnPath, 2)}`,
    `doubted_off_path=${Math.min(reading.doubted - reading.doubtedOnPath, 2)}`,
    `quantity_structure=${structure}`,
  ];
}
