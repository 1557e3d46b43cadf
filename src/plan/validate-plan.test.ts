import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { Plan } from '../core/plan.js';
import { applyParamDefaults } from './block-params.js';
import { createBlockCatalog, type BlockSpec } from './block-specs.js';
import { buildGraph, extractReferences, topologicalOrder } from './plan-graph.js';
import { validatePlan } from './validate-plan.js';

const catalog = createBlockCatalog();
const diamond: Plan = {
  dom: 'high',
  nodes: [
    { id: 'D', agent: 'ReflexionAgent', input: 'Combine ${B} and ${C}', params: {} },
    { id: 'B', agent: 'cot', input: 'Left half of ${A}', params: { temperature: 0.1 } },
    { id: 'C', agent: 'sc', input: 'Right half of ${A}', params: {} },
    { id: 'A', agent: 'search', input: '', params: { topK: 2 } },
  ],
  edges: [
    { from: 'A', to: 'B' },
    { from: 'A', to: 'C' },
    { from: 'B', to: 'D' },
    { from: 'C', to: 'D' },
  ],
  answer: 'D',
};

describe('validatePlan', () => {
  test('a valid diamond and a direct answer have no diagnostics', () => {
    expect(validatePlan(diamond, catalog)).toEqual([]);
    expect(validatePlan({ dom: 'low', nodes: [], edges: [], directAnswer: '7' }, catalog, { dom: 'low' })).toEqual([]);
  });

  test('a low DoM asked for allows one agent', () => {
    const single: Plan = { dom: 'high', nodes: [{ id: 'A', agent: 'cot', input: '', params: {} }], edges: [] };
    expect(validatePlan(single, catalog, { dom: 'low' })).toEqual([]);
    expect(validatePlan(diamond, catalog, { dom: 'low' }).map((diagnostic) => diagnostic.code)).toEqual(['dom_violation']);
  });

  test('user blocks are validated through their own spec', () => {
    const lookup: BlockSpec = {
      name: 'lookup',
      aliases: ['LookupAgent'],
      description: 'Looks a key up.',
      paramsSchema: z.strictObject({ table: z.string(), limit: z.number().int().default(3) }),
      requiredParams: ['table'],
    };
    const own = createBlockCatalog([lookup]);
    const plan: Plan = { dom: 'low', nodes: [{ id: 'A', agent: 'LookupAgent', input: '', params: { limit: 'x' } }], edges: [] };
    expect(validatePlan(plan, own)).toMatchInlineSnapshot(`
      [
        {
          "code": "missing_param",
          "message": "block "lookup" needs params.table: a string",
          "path": "nodes[0].params.table",
        },
        {
          "code": "invalid_params",
          "message": "Invalid input: expected number, received string; give an integer",
          "path": "nodes[0].params.limit",
        },
      ]
    `);
  });

  test('a self-loop is a cycle and leaves no start node', () => {
    const plan: Plan = { dom: 'low', nodes: [{ id: 'A', agent: 'cot', input: 'again ${A}', params: {} }], edges: [{ from: 'A', to: 'A' }] };
    expect(validatePlan(plan, catalog).map((diagnostic) => [diagnostic.code, diagnostic.path])).toEqual([
      ['no_start_node', 'edges'],
      ['cycle', 'edges[0]'],
    ]);
  });
});

describe('applyParamDefaults', () => {
  test('canonical names and every default made explicit', () => {
    expect(applyParamDefaults(diamond, catalog).map((node) => [node.id, node.agent, node.params])).toEqual([
      ['D', 'reflexion', { temperature: 0.5, maxRounds: 5 }],
      ['B', 'cot', { temperature: 0.1 }],
      ['C', 'sc', { temperature: 0.5, samples: 5 }],
      ['A', 'search', { temperature: 0.5, topK: 2, maxIterations: 5 }],
    ]);
  });

  test('unknown blocks and invalid params are left as they are', () => {
    const plan: Plan = { dom: 'high', nodes: [{ id: 'A', agent: 'Oracle', input: '', params: { x: 1 } }, { id: 'B', agent: 'sc', input: '', params: { samples: 0 } }], edges: [] };
    expect(applyParamDefaults(plan, catalog)).toEqual([plan.nodes[0], { ...plan.nodes[1], agent: 'sc' }]);
  });
});

describe('plan graph helpers', () => {
  test('references are read in order, trimmed, and only when closed nearby', () => {
    expect(extractReferences('use ${A} and ${ B } then ${A}; ${unclosed')).toEqual(['A', 'B', 'A']);
  });

  test('topological order is layered with ids sorted, independent of declaration order', () => {
    const ids = diamond.nodes.map((node) => node.id);
    expect(topologicalOrder(buildGraph(ids, diamond.edges))).toEqual({ order: ['A', 'B', 'C', 'D'], blocked: [] });
    expect(topologicalOrder(buildGraph([...ids].reverse(), [...diamond.edges].reverse())).order).toEqual(['A', 'B', 'C', 'D']);
  });
});
