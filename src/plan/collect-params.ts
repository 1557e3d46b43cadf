import type { PlanWarning } from '../core/plan.js';
import { blockParamInfo, coerceParamValue, paramKind, parseParamText, resolveParamKey } from './block-params.js';
import type { BlockSpec } from './block-specs.js';
import { planWarning } from './plan-diagnostic.js';

/** One param as written: its key and its value (XML values are still text, or a list of texts). */
export interface WrittenParam {
  key: string;
  value: unknown;
  /** XML values arrive as text and are parsed JSON-ishly; JSON values are already typed. */
  fromText: boolean;
}

/**
 * Builds a node's params from what the orchestrator wrote: keys mapped to the block's own
 * (`debate_roles` -> `roles`), text parsed (`5`, `["a","b"]`), obvious type slips coerced.
 * Keys the block does not declare (`<agent_model>`, `<tools>`, roles on a CoT agent) are
 * dropped with an `ignored_key` warning, as the MAS-Orchestra runner never reads them; for
 * an unknown block, or a user block whose schema cannot be listed, they are kept as written
 * for the schema to judge.
 */
export function collectParams(
  written: readonly WrittenParam[],
  spec: BlockSpec | undefined,
  paramsPath: string,
  warnings: PlanWarning[],
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const declared = spec === undefined ? undefined : blockParamInfo(spec);
  for (const { key, value, fromText } of written) {
    const known = resolveParamKey(key, spec);
    if (known === undefined && spec !== undefined && declared !== undefined && declared.size > 0) {
      const message = `block "${spec.name}" has no param "${key}"; it was ignored (its params: ${[...declared.keys()].join(', ')})`;
      warnings.push(planWarning('ignored_key', `${paramsPath}.${key}`, message));
      continue;
    }
    const resolved = known ?? key;
    const path = `${paramsPath}.${resolved}`;
    const kind = paramKind(spec, resolved);
    const parsed = fromText && typeof value === 'string' ? parseParamText(value, kind) : value;
    if (Object.hasOwn(params, resolved)) {
      warnings.push(planWarning('ignored_key', path, `param "${resolved}" was written twice; the last value is used`));
    }
    params[resolved] = coerceParamValue(parsed, kind, path, warnings);
  }
  return params;
}
