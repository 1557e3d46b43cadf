import type { Dom } from '../core/plan.js';
import { createBlockCatalog, type BlockCatalog } from './block-specs.js';

/** Options shared by the plan parsers. */
export interface PlanTextOptions {
  /**
   * Blocks that agent names resolve against (aliases such as `CoTAgent` become `cot`).
   * @default the built-in blocks
   */
  catalog?: BlockCatalog;
  /**
   * The DoM the orchestrator was asked for. Used when the text states none; validation then
   * enforces it. @default inferred: `low` for at most one agent, else `high`
   */
  dom?: Dom;
}

let builtinCatalog: BlockCatalog | undefined;

/** The catalog of built-in blocks, created once. */
export function defaultBlockCatalog(): BlockCatalog {
  builtinCatalog ??= createBlockCatalog();
  return builtinCatalog;
}
