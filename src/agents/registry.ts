import { UserError } from '../core/index.js';
import type { BlockCatalog } from '../plan/index.js';
import type { BlockDefinition } from './block.js';
import { cotBlock } from './cot.js';
import { debateBlock } from './debate.js';
import { reflexionBlock } from './reflexion.js';
import { scBlock } from './sc.js';
import { searchBlock } from './search.js';

/** The runnable side of the block catalog: plan validation resolves specs, the executor gets definitions. */
export interface BlockRegistry extends BlockCatalog {
  /** The definition registered under this name or alias (case-insensitive). */
  get(name: string): BlockDefinition | undefined;
  /** Adds a block; throws UserError when its name or an alias is already taken. Returns the registry. */
  register<P extends Record<string, unknown>>(definition: BlockDefinition<P>): BlockRegistry;
  specs(): readonly BlockDefinition[];
}

/** cot, sc, reflexion, debate and search, the MAS-Orchestra sub-agent blocks. */
export const BUILTIN_BLOCKS: readonly BlockDefinition[] = [cotBlock, scBlock, reflexionBlock, debateBlock, searchBlock];

/**
 * A registry holding the built-in blocks plus `extraBlocks`. Names and aliases match without
 * regard to case, as plan text varies (`CoTAgent`, `cotagent`).
 *
 * @example
 * import { z } from 'zod';
 * const EchoParams = z.strictObject({ prefix: z.string().default('') });
 * const registry = createBlockRegistry();
 * registry.register({
 *   name: 'echo',
 *   aliases: ['EchoAgent'],
 *   description: 'Repeats its input; handy in tests.',
 *   paramsSchema: EchoParams,
 *   requiredParams: [],
 *   async run(context: BlockContext<z.infer<typeof EchoParams>>) {
 *     const answer = context.params.prefix + context.input;
 *     return { output: answer, answer, artifacts: { kind: 'echo' } };
 *   },
 * });
 * registry.get('echoagent'); // the echo block
 */
export function createBlockRegistry(extraBlocks: readonly BlockDefinition[] = []): BlockRegistry {
  const byKey = new Map<string, BlockDefinition>();
  const definitions: BlockDefinition[] = [];
  const registry: BlockRegistry = {
    resolve: (name) => byKey.get(keyOf(name)),
    get: (name) => byKey.get(keyOf(name)),
    specs: () => definitions,
    register(definition) {
      checkShape(definition);
      // A block may list its own name again as an alias (`cot` / `CoT`); only clashes with
      // other blocks count.
      const keys = new Set([definition.name, ...definition.aliases].map(keyOf));
      for (const key of keys) {
        const owner = byKey.get(key);
        if (owner !== undefined) {
          throw new UserError(
            `cannot register block "${definition.name}": the name or alias "${key}" is already used by block "${owner.name}"; choose another name or alias (matching ignores case)`,
          );
        }
      }
      const stored = definition as BlockDefinition;
      for (const key of keys) byKey.set(key, stored);
      definitions.push(stored);
      return registry;
    },
  };
  for (const block of [...BUILTIN_BLOCKS, ...extraBlocks]) registry.register(block);
  return registry;
}

function keyOf(name: string): string {
  return name.trim().toLowerCase();
}

/** Registered blocks often come from user code without types; check what the executor relies on. */
function checkShape(definition: BlockDefinition<never>): void {
  const problems: string[] = [];
  if (typeof definition.name !== 'string' || definition.name.trim() === '') problems.push('name must be a non-empty string');
  if (!Array.isArray(definition.aliases) || definition.aliases.some((alias) => typeof alias !== 'string' || alias.trim() === '')) {
    problems.push('aliases must be an array of non-empty strings');
  }
  if (typeof definition.run !== 'function') problems.push('run must be a function');
  if (typeof definition.paramsSchema?.safeParse !== 'function') problems.push('paramsSchema must be a zod schema');
  if (problems.length > 0) {
    throw new UserError(`cannot register block "${String(definition.name)}": ${problems.join('; ')}`);
  }
}
