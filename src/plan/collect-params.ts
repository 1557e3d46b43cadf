import type { PlanWarning } from '../core/plan.js';
import { coerceParamValue, paramKind, parseParamText, resolveParamKey } from './block-params.js';
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
 * Keys the block does not know are kept as written so the block schema reports them.
 */
export function collectParams(
  written: readonly WrittenParam[],
  spec: BlockSpec | undefined,
  paramsPath: string,
  warnings: PlanWarning[],
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const { key, value, fromText } of written) {
    const resolved = resolveParamKey(key, spec) ?? key;
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
