import { Rng } from '../../../core/index.js';
import { sameValue, type KbValue, type KnowledgeBase } from './knowledge-base.js';
import type { ValueType } from './relations.js';

/** How often a failed hop takes a value the model just read rather than one from memory. */
const READ_VALUE_SHARE = 0.7;
/** Largest distance of a misremembered year from the true one. */
const MAX_YEAR_ERROR = 15;

/**
 * A plausible wrong value of the right type for a failed hop, seeded. Like a model, it mostly
 * grabs a value of that type that appears in the documents it was shown; otherwise it recalls a
 * random one (a year near the true year). `answer`, when given (`failuresAvoidAnswer`), is never
 * returned either: the question's right answer, which a failed hop can otherwise reach by chance
 * from a wrong subject. Without it the draws are those of before the option.
 */
export function pickWrongValue(
  kb: KnowledgeBase,
  mentions: ReadonlyMap<string, readonly KbValue[]>,
  target: ValueType,
  truth: KbValue | undefined,
  seed: number,
  documents: readonly { id: string }[],
  answer?: KbValue,
): KbValue {
  const rng = new Rng(seed);
  const read: KbValue[] = [];
  for (const document of documents) {
    for (const value of mentions.get(document.id) ?? []) {
      if (value.type === target && !sameValue(value, truth) && !sameValue(value, answer) && !read.some((other) => sameValue(other, value))) read.push(value);
    }
  }
  if (read.length > 0 && rng.chance(READ_VALUE_SHARE)) return rng.pick(read);
  if (target === 'year') {
    const base = truth?.index ?? rng.int(1890, 2021);
    const offset = (rng.chance(0.5) ? 1 : -1) * rng.int(1, MAX_YEAR_ERROR);
    // The other side of the base cannot also be the answer (the offset is never 0).
    return { type: 'year', index: answer?.type === 'year' && base + offset === answer.index ? base - offset : base + offset };
  }
  const size = target === 'country' ? kb.countries.length : kb.names[target].length;
  let index = rng.int(0, size - 1);
  // Shift off the true value, so a failure never lands on the hop's right value by chance.
  if (truth !== undefined && truth.type === target && index === truth.index && size > 1) index = (index + rng.int(1, size - 1)) % size;
  // And off the answer, to the next index that is neither (at most two steps).
  const avoided = (candidate: number) => (answer?.type === target && candidate === answer.index) || (truth?.type === target && candidate === truth.index);
  if (answer?.type === target && index === answer.index && size > 2) while (avoided(index)) index = (index + 1) % size;
  return { type: target, index };
}
