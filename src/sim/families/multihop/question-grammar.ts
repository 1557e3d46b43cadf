import { RELATION_NAMES, RELATIONS, fillTemplate, type RelationName, type ValueType } from './relations.js';

/** A question read back into its anchor (as written) and the relations it chains, innermost first. */
export interface ParsedQuestion {
  anchorText: string;
  chain: RelationName[];
}

/**
 * Writes the question that chains `chain` from `anchorText`: inner hops become noun phrases
 * (`the founder of Zentrix Labs`), the last hop the question template.
 *
 * @example
 * renderQuestion('Zentrix Labs', ['founder', 'mentor', 'birthplace']);
 * // 'In which city was the mentor of the founder of Zentrix Labs born?'
 */
export function renderQuestion(anchorText: string, chain: readonly RelationName[]): string {
  let phrase = anchorText;
  chain.forEach((relation, hop) => {
    const spec = RELATIONS[relation];
    if (hop < chain.length - 1) {
      if (spec.nounPhrase === undefined) throw new RangeError(`relation ${relation} ends a chain; it cannot be hop ${hop + 1} of ${chain.length}`);
      phrase = fillTemplate(spec.nounPhrase, phrase);
    }
  });
  const last = chain[chain.length - 1];
  if (last === undefined) throw new RangeError('a question needs at least one relation');
  return fillTemplate(RELATIONS[last].question, phrase);
}

const QUESTION_PATTERNS = RELATION_NAMES.map((name) => ({ name, pattern: templatePattern(RELATIONS[name].question) }));
const NOUN_PREFIXES = RELATION_NAMES.flatMap((name) => {
  const phrase = RELATIONS[name].nounPhrase;
  return phrase === undefined ? [] : [{ name, prefix: phrase.slice(0, phrase.indexOf('{X}')).toLowerCase() }];
});

/**
 * Reads a question written by {@link renderQuestion} (case and surrounding space forgiven).
 * Undefined when the text is not of that grammar or chains relations whose types do not fit
 * (`the mayor of the mentor of ...`). The anchor is returned as written, known entity or not.
 */
export function parseQuestion(text: string): ParsedQuestion | undefined {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  for (const { name, pattern } of QUESTION_PATTERNS) {
    const match = pattern.exec(trimmed);
    if (match === null) continue;
    const outer: RelationName[] = [];
    let phrase = (match[1] ?? '').trim();
    for (let peeled = true; peeled; ) {
      peeled = false;
      const lower = phrase.toLowerCase();
      for (const { name: inner, prefix } of NOUN_PREFIXES) {
        if (lower.startsWith(prefix) && phrase.length > prefix.length) {
          outer.push(inner);
          phrase = phrase.slice(prefix.length).trim();
          peeled = true;
          break;
        }
      }
    }
    if (phrase === '') return undefined;
    const chain = [...outer.reverse(), name];
    return chainFits(chain) ? { anchorText: phrase, chain } : undefined;
  }
  return undefined;
}

/** Each hop's subject is the previous hop's value, and only the last hop may be terminal. */
export function chainFits(chain: readonly RelationName[], anchorType?: ValueType): boolean {
  let type = anchorType ?? (chain[0] === undefined ? undefined : RELATIONS[chain[0]].source);
  for (const [hop, relation] of chain.entries()) {
    const spec = RELATIONS[relation];
    if (spec.source !== type || (spec.terminal && hop < chain.length - 1)) return false;
    type = spec.target;
  }
  return chain.length > 0;
}

function templatePattern(template: string): RegExp {
  const [before = '', after = ''] = template.split('{X}');
  return new RegExp(`^${escapeRegExp(before)}(.+)${escapeRegExp(after)}$`, 'i');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
