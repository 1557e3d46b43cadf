import type { Plan } from '../core/plan.js';
import type { BlockCatalog } from './block-specs.js';
import { parsePlan } from './parse-plan.js';
import { defaultBlockCatalog } from './plan-text-options.js';
import { renderInvalidPlan, renderParseResult, renderPlan } from './render-plan.js';
import { validatePlan } from './validate-plan.js';

/**
 * The canonical text of a plan, as every reward model reads it: `renderPlan` of the canonical
 * plan, or `INVALID PLAN: codes` for text that does not parse or a plan that does not validate
 * (so formatting noise never reaches the model and a bad plan is still scored).
 *
 * @example
 * canonicalPlanText('{"dom":"low","nodes":[],"answer":"4"}') // '<dom>low</dom>\n<answer>4</answer>'
 */
export function canonicalPlanText(plan: string | Plan, catalog: BlockCatalog = defaultBlockCatalog()): string {
  if (typeof plan === 'string') return renderParseResult(parsePlan(plan, { catalog }), catalog);
  const diagnostics = validatePlan(plan, catalog);
  return diagnostics.length > 0 ? renderInvalidPlan(diagnostics) : renderPlan(plan, catalog);
}
