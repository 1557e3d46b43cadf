import { describe, expect, it } from 'vitest';
import { createBlockRegistry } from '../agents/index.js';
import { buildOrchestratorMessages } from '../plan/index.js';
import { offeredBlocks } from './offered-blocks.js';

describe('offeredBlocks', () => {
  const registry = createBlockRegistry();

  it('leaves search out of the prompt and the catalog when the run has no retriever', () => {
    const blocks = offeredBlocks(registry, { hasRetriever: false });
    expect(blocks.specs().map((spec) => spec.name)).toEqual(['cot', 'sc', 'reflexion', 'debate']);
    expect(blocks.resolve('search')).toBeUndefined();
    expect(blocks.get('SearchAgent')).toBeUndefined();
    expect(blocks.get('CoTAgent')?.name).toBe('cot');
    for (const format of ['json', 'xml'] as const) {
      const prompt = buildOrchestratorMessages('Which is larger?', { catalog: blocks, format }).map((message) => message.content).join('\n');
      expect(prompt).not.toMatch(/\bsearch\b/i);
      expect(prompt).toContain('- cot');
    }
  });

  it('offers every block when there is one', () => {
    const blocks = offeredBlocks(registry, { hasRetriever: true });
    expect(blocks).toBe(registry);
    expect(buildOrchestratorMessages('Which is larger?', { catalog: blocks, format: 'json' }).map((message) => message.content).join('\n')).toContain('- search');
  });
});
