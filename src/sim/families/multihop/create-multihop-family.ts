import type { MultihopFamilyConfig } from '../../scenario/scenario-schema.js';
import type { SimFamily } from '../family.js';
import { decomposeMultihop } from './decompose-multihop.js';
import { generateMultihopTasks } from './generate-multihop-tasks.js';
import { buildMultihopWorld } from './multihop-world.js';
import { createMultihopReader } from './read-multihop.js';

/**
 * The `multihop` family: questions chaining 1-4 facts over a knowledge base generated from
 * `seed` (people, companies, cities), answered from its rendered corpus. The base and corpus
 * depend only on `seed` and `config.entities`; tasks on the `rng` given to `generate`.
 *
 * @example
 * const family = createMultihopFamily(MultihopFamilySchema.parse({}), 7);
 * const [task] = family.generate({ count: 1, rng: new Rng(1), idPrefix: 'train' });
 * // task.question: 'In which city was the mentor of the founder of Zentrix Labs born?'
 */
export function createMultihopFamily(config: MultihopFamilyConfig, seed: number): SimFamily {
  const world = buildMultihopWorld(config.entities, seed, config);
  const { kb, corpus } = world;
  const read = createMultihopReader(world, { failuresAvoidAnswer: config.failuresAvoidAnswer });
  return {
    name: 'multihop',
    generate: (options) => generateMultihopTasks(kb, config, options, world.famous),
    read,
    decompose: decomposeMultihop,
    corpus: () => corpus.documents,
  };
}
