import type { Diagnostic, PlanNode } from '../core/plan.js';
import { blockParamInfo } from './block-params.js';
import type { BlockSpec } from './block-specs.js';
import { nodePath, planDiagnostic } from './plan-diagnostic.js';

/** A one-line hint of what a param takes, from the block's schema. */
function paramHint(spec: BlockSpec, key: string): string {
  const info = blockParamInfo(spec).get(key);
  if (info?.kind === 'array') {
    const minimum = typeof info.schema.minItems === 'number' ? ` of at least ${info.schema.minItems} items` : '';
    return key === 'roles' ? `a list${minimum} such as ["Optimist", "Skeptic"]` : `a list${minimum}`;
  }
  if (!info || info.kind === 'unknown') return 'a valid value';
  return `${/^[aeiou]/.test(info.kind) ? 'an' : 'a'} ${info.kind}`;
}

/**
 * Checks a node's params against its block: required params (`missing_param`) and the block's
 * zod schema (`invalid_params`, one diagnostic per issue, located at the param).
 */
export function validateNodeParams(node: PlanNode, index: number, spec: BlockSpec): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const missing = new Set<string>();
  for (const key of spec.requiredParams) {
    if (node.params[key] === undefined) {
      missing.add(key);
      const message = `block "${spec.name}" needs params.${key}: ${paramHint(spec, key)}`;
      diagnostics.push(planDiagnostic('missing_param', nodePath(index, `params.${key}`), message));
    }
  }
  const result = spec.paramsSchema.safeParse(node.params);
  if (result.success) return diagnostics;
  const known = [...blockParamInfo(spec).keys()].join(', ');
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.');
    if (issue.path.length === 1 && missing.has(key) && node.params[key] === undefined) continue;
    if (issue.code === 'unrecognized_keys') {
      for (const unknownKey of issue.keys) {
        const message = `block "${spec.name}" has no param "${unknownKey}"; remove it (known params: ${known || 'none'})`;
        diagnostics.push(planDiagnostic('invalid_params', nodePath(index, `params.${unknownKey}`), message));
      }
      continue;
    }
    const path = nodePath(index, key === '' ? 'params' : `params.${key}`);
    const hint = issue.path.length >= 1 ? `; give ${paramHint(spec, String(issue.path[0]))}` : '';
    diagnostics.push(planDiagnostic('invalid_params', path, `${issue.message}${hint}`));
  }
  return diagnostics;
}
