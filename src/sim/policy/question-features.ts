/**
 * Observable features of a task's question text: what an orchestrator reading the question
 * could notice. Nothing here sees task metadata or generator state, so the policy can only
 * learn what the text reveals. Values are scaled to roughly [0, 2] so that one learning rate
 * suits every weight.
 */
export const FEATURE_NAMES = [
  'bias',
  /** Fewer than 25 words. */
  'length_short',
  /** 25 to 79 words. */
  'length_medium',
  /** 80 words or more. */
  'length_long',
  /** ln(1 + words) / 5. */
  'log_words',
  /** Sentences / 10, capped at 2. */
  'sentences',
  /** Numbers written in digits / 10, capped at 2. */
  'numbers',
  /** Occurrences of "the number of" / 5, capped at 2 (iGSM-style quantities). */
  'number_of_phrases',
  /** The question asks for several things (several question marks, "respectively", "in order", a list). */
  'asks_several',
  /** Longest chain of "the X of" relations ("the mentor of the founder of Ann") / 3, capped at 2. */
  'of_chain',
  /** Chained possessives ("Ann's employer's founder") / 2, capped at 2. */
  'possessive_chain',
  /** Arithmetic vocabulary (times, plus, total, each, more than...) / 10, capped at 2. */
  'arith_vocab',
  /** Entity and relation vocabulary (born, founded, city, company, who, where...) / 5, capped at 2. */
  'multihop_vocab',
  /** Hedged or disputed statements ("note", "claims", "reportedly"...) / 2, capped at 2. */
  'hedges',
  /** The question opens with who / where / which / when. */
  'wh_entity',
  /** A comparison is asked (larger, older, both, same...). */
  'comparison',
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];
export const FEATURE_COUNT = FEATURE_NAMES.length;

const WORD = /[A-Za-z0-9'’-]+/g;
const NUMBER = /(?<![A-Za-z])\d+(?:[.,]\d+)*/g;
const SENTENCE_END = /[.?!](?:\s|$)/g;
const NUMBER_OF = /\bthe number of\b/gi;
const SEVERAL = /\?[^?]*\?|\brespectively\b|\bin (?:this |that )?order\b|\bcomma-separated\b|\bseparated by commas\b|\blist\b/i;
const RELATION_CHAIN = /(?:\bthe [a-z]+(?: [a-z]+)? of )+/gi;
const POSSESSIVE_CHAIN = /\b\w+['’]s\s+\w+['’]s\b/g;
const ARITH =
  /\b(?:how many|how much|times|plus|minus|sum|total|each|per|twice|thrice|half|double|triple|difference|product|equals?|more than|fewer than|less than|multiplied|divided|altogether|combined|remainder)\b/gi;
const MULTIHOP =
  /\b(?:born|birthplace|founded|founder|city|country|capital|company|works?|worked|employer|director|ceo|headquartered|located|spouse|married|studied|university|who|where|which|nationality|member|author|film|album|mentor|mayor|year|employs?)\b/gi;
const HEDGES = /\b(?:note|notes|claims?|claimed|reportedly|allegedly|rumou?red|some say|according to|mistakenly|supposedly|however)\b/gi;
const WH_START = /^\s*(?:who|whom|whose|where|which|when|in which|in what)\b/i;
const COMPARISON = /\b(?:larger|smaller|older|younger|earlier|later|bigger|both|same|compare|greater|higher|lower)\b/i;

/** Questions whose features are kept; plans are sampled several times per question (Best-of-N, GRPO groups). */
export const MAX_CACHED_FEATURES = 4096;
const cache = new Map<string, Float64Array>();

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
const capped = (value: number, scale: number) => Math.min(value / scale, 2);

/**
 * The feature vector of a question (layout `FEATURE_NAMES`). Pure: the same text always gives
 * the same vector. Vectors are cached and shared, so treat them as read-only.
 *
 * @example
 * questionFeatures('What is the number of apples in each basket?')[FEATURE_NAMES.indexOf('number_of_phrases')] // 0.2
 */
export function questionFeatures(question: string): Float64Array {
  const cached = cache.get(question);
  if (cached) return cached;
  // Clearing beats LRU bookkeeping here: a miss costs tens of microseconds.
  if (cache.size >= MAX_CACHED_FEATURES) cache.clear();
  const features = computeFeatures(question);
  cache.set(question, features);
  return features;
}

function computeFeatures(question: string): Float64Array {
  const features = new Float64Array(FEATURE_COUNT);
  const words = count(question, WORD);
  let longestChain = 0;
  for (const chain of question.match(RELATION_CHAIN) ?? []) longestChain = Math.max(longestChain, count(chain, / of /g));
  const values: Record<FeatureName, number> = {
    bias: 1,
    length_short: words < 25 ? 1 : 0,
    length_medium: words >= 25 && words < 80 ? 1 : 0,
    length_long: words >= 80 ? 1 : 0,
    log_words: Math.log1p(words) / 5,
    sentences: capped(Math.max(1, count(question.trim(), SENTENCE_END)), 10),
    numbers: capped(count(question, NUMBER), 10),
    number_of_phrases: capped(count(question, NUMBER_OF), 5),
    asks_several: SEVERAL.test(question) ? 1 : 0,
    of_chain: capped(longestChain, 3),
    possessive_chain: capped(count(question, POSSESSIVE_CHAIN), 2),
    arith_vocab: capped(count(question, ARITH), 10),
    multihop_vocab: capped(count(question, MULTIHOP), 5),
    hedges: capped(count(question, HEDGES), 2),
    wh_entity: WH_START.test(question) ? 1 : 0,
    comparison: COMPARISON.test(question) ? 1 : 0,
  };
  FEATURE_NAMES.forEach((name, index) => (features[index] = values[name]));
  return features;
}
