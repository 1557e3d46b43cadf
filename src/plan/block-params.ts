import { jsonrepair } from 'jsonrepair';
import { z } from 'zod';
import type { Plan, PlanNode, PlanWarning } from '../core/index.js';
import type { BlockCatalog, BlockSpec } from './block-specs.js';
import { planWarning } from './plan-diagnostic.js';

/** JSON-Schema type of one param, as far as plan parsing cares. */
export type ParamKind = 'array' | 'number' | 'integer' | 'boolean' | 'string' | 'unknown';

export interface ParamInfo {
  kind: ParamKind;
  /** JSON-Schema of the param (input side, so `default` is present when the block has one). */
  schema: Record<string, unknown>;
}

const paramInfoCache = new WeakMap<BlockSpec, ReadonlyMap<string, ParamInfo>>();

/**
 * The params a block declares, read from its zod schema through `z.toJSONSchema`. A user block
 * whose schema cannot be expressed as an object gives an empty map: its keys then pass
 * through unchanged and the schema alone decides.
 */
export function blockParamInfo(spec: BlockSpec): ReadonlyMap<string, ParamInfo> {
  const cached = paramInfoCache.get(spec);
  if (cached) return cached;
  const info = new Map<string, ParamInfo>();
  try {
    const jsonSchema = z.toJSONSchema(spec.paramsSchema, { io: 'input', unrepresentable: 'any' });
    const properties = (jsonSchema as { properties?: Record<string, Record<string, unknown>> }).properties ?? {};
    for (const [key, schema] of Object.entries(properties)) {
      const type = schema.type;
      const kind: ParamKind =
        type === 'array' || type === 'number' || type === 'integer' || type === 'boolean' || type === 'string'
          ? type
          : 'unknown';
      info.set(key, { kind, schema });
    }
  } catch {
    // A schema zod cannot describe: treat its params as opaque.
  }
  paramInfoCache.set(spec, info);
  return info;
}

/**
 * Spellings orchestrators use, folded (lowercase, no `_`/`-`), mapped to candidate block keys in
 * order. A Map, not an object literal: a key that folds to `constructor` must find nothing.
 */
const PARAM_ALIASES: ReadonlyMap<string, readonly string[]> = new Map([
  ['debateroles', ['roles']],
  ['personas', ['roles']],
  ['numsamples', ['samples']],
  ['nsamples', ['samples']],
  ['numpaths', ['samples']],
  ['rounds', ['rounds', 'maxRounds']],
  ['numrounds', ['rounds', 'maxRounds']],
  ['debaterounds', ['rounds']],
  ['maxrounds', ['maxRounds', 'rounds']],
  ['k', ['topK']],
  ['numresults', ['topK']],
  ['iterations', ['maxIterations']],
  ['maxiters', ['maxIterations']],
  ['maxsteps', ['maxIterations']],
  ['temp', ['temperature']],
]);

const foldKey = (key: string) => {
  const lower = key.toLowerCase();
  return lower.includes('_') || lower.includes('-') ? lower.replace(/[_-]/g, '') : lower;
};
const foldedKeysCache = new WeakMap<BlockSpec, ReadonlyMap<string, string>>();
/** A block's param keys by their folded spelling (the first key of each folded spelling, in declaration order). */
function foldedParamKeys(spec: BlockSpec): ReadonlyMap<string, string> {
  let folded = foldedKeysCache.get(spec);
  if (folded === undefined) {
    const keys = new Map<string, string>();
    for (const candidate of blockParamInfo(spec).keys()) if (!keys.has(foldKey(candidate))) keys.set(foldKey(candidate), candidate);
    foldedKeysCache.set(spec, (folded = keys));
  }
  return folded;
}
/** Built-in param names, folded: recognised on nodes whose block is unknown. */
const KNOWN_FOLDED_KEYS = new Set(['temperature', 'samples', 'roles', 'rounds', 'maxrounds', 'topk', 'maxiterations', 'model', 'maxtokens']);

/**
 * Maps a param spelling to the block's key: exact, then case/underscore-insensitive
 * (`top_k` -> `topK`), then known aliases (`debate_roles` -> `roles`). Returns `undefined`
 * when the block has no such param (the key is then kept as written and the schema rejects it).
 */
export function resolveParamKey(key: string, spec: BlockSpec | undefined): string | undefined {
  const folded = foldKey(key);
  if (!spec) {
    // Unknown block: still recognise the common spellings so node-level params are collected.
    const alias = PARAM_ALIASES.get(folded)?.[0];
    return alias ?? (KNOWN_FOLDED_KEYS.has(folded) ? key : undefined);
  }
  const info = blockParamInfo(spec);
  if (info.has(key)) return key;
  const byFolded = foldedParamKeys(spec).get(folded);
  if (byFolded !== undefined) return byFolded;
  for (const candidate of PARAM_ALIASES.get(folded) ?? []) if (info.has(candidate)) return candidate;
  return undefined;
}

/** Parses text written as a param value: JSON when it is JSON (or nearly), else the trimmed text. */
export function parseParamText(text: string, kind: ParamKind): unknown {
  const trimmed = text.trim();
  if (kind === 'string' && !trimmed.startsWith('"')) return trimmed;
  try {
    return JSON.parse(trimmed);
  } catch {
    if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
      try {
        return JSON.parse(jsonrepair(trimmed));
      } catch {
        return trimmed;
      }
    }
    return trimmed;
  }
}

/**
 * Converts a value to the kind the block expects when the intent is unambiguous: `"5"` to 5,
 * `"Economist, Analyst"` to a list. Anything else is returned unchanged for the schema to judge.
 */
export function coerceParamValue(value: unknown, kind: ParamKind, path: string, warnings: PlanWarning[]): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if ((kind === 'number' || kind === 'integer') && trimmed !== '' && Number.isFinite(Number(trimmed))) {
    warnings.push(planWarning('param_coerced', path, `read the string "${trimmed}" as a number; write numbers without quotes`));
    return Number(trimmed);
  }
  if (kind === 'boolean' && (trimmed === 'true' || trimmed === 'false')) {
    warnings.push(planWarning('param_coerced', path, `read the string "${trimmed}" as a boolean`));
    return trimmed === 'true';
  }
  if (kind === 'array') {
    const parsed = parseParamText(trimmed, 'array');
    if (Array.isArray(parsed)) return parsed;
    const items = trimmed.split(/[,;\n]/).map((item) => item.trim()).filter((item) => item !== '');
    warnings.push(planWarning('param_coerced', path, 'read a comma-separated string as a list; write a JSON array like ["a","b"]'));
    return items;
  }
  return value;
}

/** The kind of a block param, `unknown` for unknown blocks or keys. */
export function paramKind(spec: BlockSpec | undefined, key: string): ParamKind {
  return spec ? (blockParamInfo(spec).get(key)?.kind ?? 'unknown') : 'unknown';
}

/**
 * The plan's nodes with canonical agent names and params parsed by their block's schema, so
 * every default is explicit (`{}` on a `sc` node becomes `{temperature: 0.5, samples: 5}`).
 * Nodes whose block is unknown or whose params do not parse are returned unchanged; run
 * `validatePlan` first to hear about them.
 *
 * @example
 * applyParamDefaults(plan, catalog)[0].params // { temperature: 0.5, samples: 5 }
 */
export function applyParamDefaults(plan: Plan, catalog: BlockCatalog): PlanNode[] {
  return plan.nodes.map((node) => {
    const spec = catalog.resolve(node.agent);
    if (!spec) return node;
    const parsed = spec.paramsSchema.safeParse(node.params);
    return { ...node, agent: spec.name, params: parsed.success ? parsed.data : node.params };
  });
}
