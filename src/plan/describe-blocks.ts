import { blockParamInfo, type ParamInfo } from './block-params.js';
import type { BlockCatalog, BlockSpec } from './block-specs.js';

/** `samples` (integer 1-20, default 5) — from the param's JSON Schema. */
function describeParam(key: string, info: ParamInfo, required: boolean): string {
  const { schema } = info;
  const range = (low: unknown, high: unknown) =>
    typeof low === 'number' && typeof high === 'number' ? ` ${low}-${high}` : typeof low === 'number' ? ` >= ${low}` : '';
  let type: string = info.kind;
  if (info.kind === 'array') {
    const items = (schema.items as { type?: unknown } | undefined)?.type;
    type = `list of ${typeof items === 'string' ? items : 'value'}s${range(schema.minItems, schema.maxItems)}`;
  } else if (info.kind === 'number' || info.kind === 'integer') {
    const exclusive = schema.exclusiveMinimum;
    const low = schema.minimum ?? (typeof exclusive === 'number' && info.kind === 'integer' ? exclusive + 1 : exclusive);
    type += range(low, schema.maximum);
  }
  const extra = required ? ', required' : 'default' in schema ? `, default ${JSON.stringify(schema.default)}` : ', optional';
  return `${key} (${type}${extra})`;
}

/**
 * A compact list of the catalog's blocks for the orchestrator prompt: name, aliases,
 * description, and params with types and defaults. Params every block shares are listed once.
 */
export function describeBlocks(catalog: BlockCatalog): string {
  const specs = catalog.specs();
  const keySets = specs.map((spec) => new Set(blockParamInfo(spec).keys()));
  const shared = [...(keySets[0] ?? [])].filter((key) => keySets.every((keys) => keys.has(key)));
  const lines = specs.map((spec) => describeBlock(spec, new Set(shared)));
  const first = specs[0];
  if (first && shared.length > 0) {
    const info = blockParamInfo(first);
    lines.push(`Every block also takes: ${shared.map((key) => describeParam(key, info.get(key)!, false)).join('; ')}.`);
  }
  return lines.join('\n');
}

function describeBlock(spec: BlockSpec, shared: ReadonlySet<string>): string {
  const own = [...blockParamInfo(spec)].filter(([key]) => !shared.has(key));
  const params = own.map(([key, info]) => describeParam(key, info, spec.requiredParams.includes(key))).join('; ');
  const aliases = spec.aliases.length > 0 ? ` (also ${spec.aliases.join(', ')})` : '';
  return `- ${spec.name}${aliases}: ${spec.description}${params ? ` Params: ${params}.` : ''}`;
}
