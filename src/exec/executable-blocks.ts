import type { BlockDefinition } from '../agents/index.js';
import type { BlockCatalog } from '../plan/index.js';

/** What the executor needs of a block registry: validation specs plus runnable blocks. */
export interface ExecutableBlocks extends BlockCatalog {
  get(name: string): BlockDefinition | undefined;
}
