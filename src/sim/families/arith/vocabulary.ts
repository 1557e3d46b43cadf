import type { Rng } from '../../../core/index.js';

/**
 * The words quantity names are built from. A quantity is "the number of <adjective> <item> in
 * <Owner>'s <container>": 16 x 20 x 24 x 12 = 92,160 distinct names. Every word is one token of
 * plain letters (owners capitalised, the rest lower case), so a name parses with one regex.
 */
export const ADJECTIVES = [
  'red', 'green', 'blue', 'yellow', 'purple', 'orange', 'white', 'black',
  'pink', 'brown', 'silver', 'golden', 'gray', 'violet', 'striped', 'spotted',
] as const;

export const ITEMS = [
  'apples', 'pears', 'marbles', 'stamps', 'coins', 'pencils', 'buttons', 'shells', 'cookies', 'candles',
  'ribbons', 'tickets', 'beads', 'cards', 'feathers', 'stickers', 'crayons', 'plums', 'lemons', 'peaches',
] as const;

export const OWNERS = [
  'Alice', 'Bob', 'Carol', 'Dave', 'Erin', 'Frank', 'Grace', 'Heidi', 'Ivan', 'Judy', 'Mallory', 'Nina',
  'Oscar', 'Peggy', 'Quinn', 'Rupert', 'Sybil', 'Trent', 'Uma', 'Victor', 'Wendy', 'Xavier', 'Yara', 'Zoe',
] as const;

export const CONTAINERS = [
  'basket', 'box', 'crate', 'bag', 'jar', 'drawer', 'chest', 'bucket', 'tin', 'sack', 'tray', 'barrel',
] as const;

/**
 * Source of a quantity id: "<adjective> <item> in <Owner>'s <container>" (the name without
 * "the number of"). Used inside larger patterns, so it has no anchors and no flags.
 */
export const QUANTITY_ID_SOURCE = "[a-z]+ [a-z]+ in [A-Z][a-z]+'s [a-z]+";

/** The parts of a quantity id, for templates that reorder them. */
export interface QuantityParts {
  adjective: string;
  item: string;
  owner: string;
  container: string;
}

const PARTS_PATTERN = /^([a-z]+) ([a-z]+) in ([A-Z][a-z]+)'s ([a-z]+)$/;

export function quantityId(parts: QuantityParts): string {
  return `${parts.adjective} ${parts.item} in ${parts.owner}'s ${parts.container}`;
}

/** Splits an id made by {@link quantityId}; undefined for anything else. */
export function quantityParts(id: string): QuantityParts | undefined {
  const match = PARTS_PATTERN.exec(id);
  if (match === null) return undefined;
  const [, adjective = '', item = '', owner = '', container = ''] = match;
  return { adjective, item, owner, container };
}

/** The noun phrase of a quantity inside a sentence: "the number of red apples in Alice's basket". */
export function nounPhrase(id: string): string {
  return `the number of ${id}`;
}

/** Draws a name not in `used` (and adds it); the vocabulary is far larger than any task. */
export function drawQuantityId(rng: Rng, used: Set<string>): string {
  for (;;) {
    const id = quantityId({
      adjective: rng.pick(ADJECTIVES),
      item: rng.pick(ITEMS),
      owner: rng.pick(OWNERS),
      container: rng.pick(CONTAINERS),
    });
    if (!used.has(id)) {
      used.add(id);
      return id;
    }
  }
}
