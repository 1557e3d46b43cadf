import type { ExecutableBlocks } from '../exec/index.js';

/** Built-in blocks that cannot run without a retriever. */
const RETRIEVER_BLOCKS: ReadonlySet<string> = new Set(['search']);

/**
 * The blocks a run can actually execute: without a retriever (no `--corpus`, no scenario
 * corpus) the `search` block is left out, so the orchestrator is not offered it and a plan that
 * names it anyway is refused as an unknown agent rather than failing mid-run. Blocks you register
 * yourself are always kept.
 *
 * @example
 * const blocks = offeredBlocks(createBlockRegistry(), { hasRetriever: retriever !== undefined });
 * createLlmOrchestrator({ provider, catalog: blocks });
 */
export function offeredBlocks(blocks: ExecutableBlocks, run: { hasRetriever: boolean }): ExecutableBlocks {
  if (run.hasRetriever) return blocks;
  const offered = (name: string | undefined) => name !== undefined && !RETRIEVER_BLOCKS.has(name);
  const specs = blocks.specs().filter((spec) => offered(spec.name));
  return {
    resolve: (name) => {
      const spec = blocks.resolve(name);
      return spec !== undefined && offered(spec.name) ? spec : undefined;
    },
    get: (name) => {
      const definition = blocks.get(name);
      return definition !== undefined && offered(definition.name) ? definition : undefined;
    },
    specs: () => specs,
  };
}
