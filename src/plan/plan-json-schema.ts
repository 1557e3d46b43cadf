import { z } from 'zod';
import { type Dom, NODE_ID_PATTERN } from '../core/index.js';
import type { BlockCatalog, BlockSpec } from './block-specs.js';

/** Name to give the schema in an OpenAI `response_format` request. */
export const PLAN_SCHEMA_NAME = 'orchestration_plan';

function paramsSchema(spec: BlockSpec): Record<string, unknown> {
  try {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(spec.paramsSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    return schema;
  } catch {
    return { type: 'object' };
  }
}

function nodeSchema(spec: BlockSpec): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      id: { type: 'string', pattern: NODE_ID_PATTERN.source },
      agent: { const: spec.name },
      input: { type: 'string', description: 'Sub-task; ${id} inserts that node\'s output; empty means the original question.' },
      description: { type: 'string' },
      params: paramsSchema(spec),
    },
    required: ['id', 'agent', 'input', 'params'],
    additionalProperties: false,
  };
}

/**
 * A JSON Schema (draft 2020-12) for JSON plans in canonical keys, for structured output
 * (`response_format: {type: "json_schema"}`) on servers that support it. Each node is one of
 * the catalog's blocks with that block's own params schema. Not OpenAI strict-mode
 * compatible (optional params are optional), so send it with `strict: false`.
 *
 * @example
 * { type: 'json_schema', name: PLAN_SCHEMA_NAME, schema: planJsonSchema(catalog, { dom: 'high' }) }
 */
export function planJsonSchema(catalog: BlockCatalog, options: { dom?: Dom | 'auto' } = {}): Record<string, unknown> {
  const dom = options.dom ?? 'auto';
  const nodes: Record<string, unknown> = { type: 'array', items: { anyOf: catalog.specs().map(nodeSchema) } };
  if (dom === 'low') nodes.maxItems = 1;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      thinking: { type: 'string' },
      dom: dom === 'auto' ? { enum: ['low', 'high'] } : { const: dom },
      nodes,
      edges: {
        type: 'array',
        items: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } }, required: ['from', 'to'], additionalProperties: false },
      },
      answer: { type: 'string', description: 'Id of the final node (the only node without outgoing edges).' },
      directAnswer: { type: 'string', description: 'The answer itself, for a plan with no nodes.' },
    },
    required: ['dom', 'nodes', 'edges'],
    additionalProperties: false,
  };
}
