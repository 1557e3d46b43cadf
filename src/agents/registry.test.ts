import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UserError } from '../core/errors.js';
import { createBlockCatalog } from '../plan/block-specs.js';
import { createScriptedProvider } from '../testing/scripted-provider.js';
import type { BlockContext, BlockDefinition } from './block.js';
import { createBlockRegistry } from './registry.js';
import { createTestContext } from './test-fixtures/block-context.js';

const EchoParamsSchema = z.strictObject({ prefix: z.string().default('') });
type EchoParams = z.infer<typeof EchoParamsSchema>;

const echoBlock: BlockDefinition<EchoParams> = {
  name: 'echo',
  aliases: ['EchoAgent'],
  description: 'Repeats its input.',
  paramsSchema: EchoParamsSchema,
  requiredParams: [],
  async run(context: BlockContext<EchoParams>) {
    const answer = context.params.prefix + context.input;
    return { output: answer, answer, artifacts: { kind: 'echo', length: answer.length } };
  },
};

describe('createBlockRegistry', () => {
  it('holds the built-in blocks under their names and aliases, like the plan catalog', () => {
    const registry = createBlockRegistry();
    const catalog = createBlockCatalog();
    expect(registry.specs().map((spec) => spec.name)).toEqual(['cot', 'sc', 'reflexion', 'debate', 'search']);
    for (const name of ['CoTAgent', 'self-consistency', 'reflexionagent', 'DebateAgent', ' WebSearchAgent ']) {
      expect(registry.get(name)?.name).toBe(catalog.resolve(name)?.name);
      expect(registry.resolve(name)).toBe(registry.get(name));
    }
    expect(registry.get('PlannerAgent')).toBeUndefined();
  });

  it('adds a custom block found by alias and runnable', async () => {
    const registry = createBlockRegistry([echoBlock]);
    const block = registry.get('ECHOAGENT');
    expect(block?.name).toBe('echo');
    const provider = createScriptedProvider([]);
    const params = block?.paramsSchema.parse({ prefix: '> ' }) ?? {};
    const result = await block?.run(createTestContext({ provider, params, input: 'hi' }));
    expect(result).toEqual({ output: '> hi', answer: '> hi', artifacts: { kind: 'echo', length: 4 } });
    provider.assertAllUsed();
  });

  it('registers later and chains', () => {
    const registry = createBlockRegistry();
    expect(registry.register(echoBlock)).toBe(registry);
    expect(registry.resolve('echo')?.description).toBe('Repeats its input.');
  });

  it('rejects duplicate names and aliases, ignoring case', () => {
    const registry = createBlockRegistry([echoBlock]);
    expect(() => registry.register({ ...echoBlock, aliases: [] })).toThrow(UserError);
    expect(() => registry.register({ ...echoBlock, name: 'echo2', aliases: ['cotagent'] })).toThrow(
      'cannot register block "echo2": the name or alias "cotagent" is already used by block "cot"',
    );
    expect(() => createBlockRegistry([echoBlock, { ...echoBlock, name: 'Echo', aliases: [] }])).toThrow(/already used by block "echo"/);
    // A failed registration leaves nothing half-registered.
    expect(registry.get('echo2')).toBeUndefined();
  });

  it('rejects malformed definitions from untyped code', () => {
    const registry = createBlockRegistry();
    const malformed = { ...echoBlock, name: ' ', run: undefined } as unknown as BlockDefinition;
    expect(() => registry.register(malformed)).toThrow(/name must be a non-empty string; run must be a function/);
  });
});
