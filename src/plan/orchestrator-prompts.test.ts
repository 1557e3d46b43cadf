import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createBlockCatalog, BUILTIN_BLOCK_SPECS, type BlockSpec } from './block-specs.js';
import { describeBlocks } from './describe-blocks.js';
import { buildOrchestratorMessages } from './orchestrator-prompts.js';
import { parsePlan } from './parse-plan.js';
import { planJsonSchema } from './plan-json-schema.js';

const catalog = createBlockCatalog();

/** The worked example inside the developer message, as the model would copy it. */
function exampleOf(developer: string, format: 'json' | 'xml'): string {
  const start = developer.indexOf('Example for');
  const end = developer.indexOf('A direct answer', start);
  const section = developer.slice(start, end === -1 ? undefined : end);
  return format === 'json' ? section : section.slice(section.indexOf('\n') + 1);
}

describe('buildOrchestratorMessages', () => {
  test('system, developer and user messages; the task only in the user message', () => {
    const messages = buildOrchestratorMessages('  What is 17 * 23?  ', { catalog, format: 'json', dom: 'auto' });
    expect(messages.map((message) => message.role)).toEqual(['system', 'developer', 'user']);
    expect(messages[2]?.content).toBe('Task:\nWhat is 17 * 23?\n\nWrite the plan.');
    expect(messages.slice(0, 2).some((message) => message.content.includes('17 * 23'))).toBe(false);
  });

  test('the developer message describes every block with its params and defaults', () => {
    const developer = buildOrchestratorMessages('q', { catalog }).at(1)?.content ?? '';
    for (const spec of BUILTIN_BLOCK_SPECS) expect(developer).toContain(`- ${spec.name} (also ${spec.aliases.join(', ')})`);
    expect(developer).toContain('samples (integer 1-20, default 5)');
    expect(developer).toContain('roles (list of strings 2-8, required)');
    expect(developer).toContain('Every block also takes: model (string, optional); maxTokens (integer 1-32768, optional); temperature (number 0-2, default 0.5).');
    expect(developer).toContain('exactly when the input of Y uses ${X}');
  });

  test.each(['json', 'xml'] as const)('the %s worked example is itself a valid plan', (format) => {
    const developer = buildOrchestratorMessages('q', { catalog, format, dom: 'high' }).at(1)?.content ?? '';
    const result = parsePlan(exampleOf(developer, format), { catalog, format, dom: 'high' });
    expect(result).toMatchObject({ ok: true, format, plan: { answer: 'A' } });
  });

  test('the DoM constraint changes the rules and the examples', () => {
    const low = buildOrchestratorMessages('q', { catalog, dom: 'low' }).at(1)?.content ?? '';
    const high = buildOrchestratorMessages('q', { catalog, dom: 'high' }).at(1)?.content ?? '';
    expect(low).toContain('Degree of MAS: low.');
    expect(low).toContain('"directAnswer": "42"');
    expect(low).not.toContain('Example for');
    expect(high).toContain('Degree of MAS: high.');
    expect(high).not.toContain('directAnswer');
  });

  test('a catalog without the built-in blocks gets an example that names only its own blocks', () => {
    const solver: BlockSpec = { name: 'solver', aliases: [], description: 'Solves.', paramsSchema: z.strictObject({}), requiredParams: [] };
    const own = createBlockCatalog([solver]);
    const developer = buildOrchestratorMessages('q', { catalog: own, format: 'xml', dom: 'high' }).at(1)?.content ?? '';
    expect(describeBlocks(own)).toBe('- solver: Solves.');
    expect(parsePlan(exampleOf(developer, 'xml'), { catalog: own })).toMatchObject({ ok: true });
  });

  test('the prompt stays short', () => {
    const developer = buildOrchestratorMessages('q', { catalog, format: 'json', dom: 'auto' }).at(1)?.content ?? '';
    expect(developer.length).toBeLessThan(3_000);
  });
});

describe('planJsonSchema', () => {
  test('one node shape per block, each with its own params schema', () => {
    const schema = planJsonSchema(catalog) as { properties: { nodes: { items: { anyOf: { properties: Record<string, Record<string, unknown>> }[] } } } };
    const shapes = schema.properties.nodes.items.anyOf;
    expect(shapes.map((shape) => shape.properties.agent)).toEqual(BUILTIN_BLOCK_SPECS.map((spec) => ({ const: spec.name })));
    const debate = shapes[3]?.properties.params as { required?: string[]; properties: Record<string, { default?: unknown }> };
    expect(debate.required).toEqual(['roles']);
    expect(debate.properties.rounds?.default).toBe(5);
  });

  test('low DoM allows at most one node', () => {
    expect(planJsonSchema(catalog, { dom: 'low' })).toMatchObject({ properties: { dom: { const: 'low' }, nodes: { maxItems: 1 } } });
    expect(planJsonSchema(catalog)).toMatchObject({ properties: { dom: { enum: ['low', 'high'] } } });
  });
});
