import { SystemError } from '../core/index.js';
import { type BlockSpec, BUILTIN_BLOCK_SPECS } from '../plan/index.js';

/** The planner-side spec of a built-in block, which its runnable definition spreads. */
export function builtinSpec(name: string): BlockSpec {
  const spec = BUILTIN_BLOCK_SPECS.find((candidate) => candidate.name === name);
  if (spec === undefined) throw new SystemError(`plan/block-specs.ts has no built-in spec named "${name}"`);
  return spec;
}
