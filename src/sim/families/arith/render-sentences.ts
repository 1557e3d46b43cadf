import type { Rng } from '../../../core/index.js';
import type { Definition } from './arith-graph.js';
import { nounPhrase, quantityParts } from './vocabulary.js';

/**
 * The English templates of the arith family. The reader (parse-arith-question.ts) accepts
 * exactly these, so a change here needs the matching change there.
 */

/** The sentence following a multi-quantity question, asking for a comma-separated list. */
export const LIST_INSTRUCTION = 'Give the answers in that order, separated by commas.';

/** Marker starting each clause that carries an upstream answer in a sub-question. */
export const KNOWN_MARKER = 'Known: ';

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "A, B and C" (names contain neither commas nor " and "). */
function listPhrase(ids: readonly string[]): string {
  const phrases = ids.map(nounPhrase);
  if (phrases.length <= 1) return phrases.join('');
  return `${phrases.slice(0, -1).join(', ')} and ${phrases[phrases.length - 1]}`;
}

/** The sentence defining a quantity; `rng` picks among equivalent wordings. */
export function renderDefinition(rng: Rng, id: string, definition: Definition): string {
  const subject = capitalise(nounPhrase(id));
  const [first = '', second = ''] = definition.kind === 'given' ? [] : definition.parents.map(nounPhrase);
  switch (definition.kind) {
    case 'given': {
      const parts = quantityParts(id);
      const variant = parts === undefined ? 0 : rng.int(0, 2);
      if (parts !== undefined && variant === 1) {
        return `${parts.owner}'s ${parts.container} holds ${definition.value} ${parts.adjective} ${parts.item}.`;
      }
      if (parts !== undefined && variant === 2) {
        return `There are ${definition.value} ${parts.adjective} ${parts.item} in ${parts.owner}'s ${parts.container}.`;
      }
      return `${subject} is ${definition.value}.`;
    }
    case 'sum':
      return rng.chance(0.5)
        ? `${subject} equals the sum of ${listPhrase(definition.parents)}.`
        : `${subject} is the total of ${listPhrase(definition.parents)}.`;
    case 'difference':
      return `${subject} equals ${first} minus ${second}.`;
    case 'times':
      return `${subject} is ${definition.constant} times ${first}.`;
    case 'more':
      return `${subject} is ${definition.constant} more than ${first}.`;
    case 'fewer':
      return `${subject} is ${definition.constant} fewer than ${first}.`;
    case 'product':
      return `${subject} equals the product of ${first} and ${second}.`;
  }
}

/** A planted misleading statement giving a wrong value for a quantity. */
export function renderNote(rng: Rng, id: string, value: number): string {
  return rng.chance(0.5)
    ? `A note claims that ${nounPhrase(id)} is ${value}, but the note was written before the last delivery.`
    : `An old label says that ${nounPhrase(id)} is ${value}, but the label is out of date.`;
}

/** "Find A, then B." with the list instruction when there is more than one target. */
export function renderFind(targets: readonly string[]): string {
  const find = `Find ${targets.map(nounPhrase).join(', then ')}.`;
  return targets.length > 1 ? `${find} ${LIST_INSTRUCTION}` : find;
}

/** The question sentence(s) of a task: "How many ...?" for one target, a Find list for several. */
export function renderQuestionSentence(targets: readonly string[]): string {
  const parts = targets.length === 1 && targets[0] !== undefined ? quantityParts(targets[0]) : undefined;
  if (parts === undefined) return renderFind(targets);
  return `How many ${parts.adjective} ${parts.item} are in ${parts.owner}'s ${parts.container}?`;
}

/** One clause handing an upstream answer to a sub-question. */
export function renderKnown(id: string, valueText: string): string {
  return `${KNOWN_MARKER}${nounPhrase(id)} is ${valueText}.`;
}
