import type { Plan, PlanWarning } from '../core/index.js';
import { defaultBlockCatalog, type BlockCatalog } from './block-specs.js';
import { linkReferences } from './finish-plan.js';
import { parsePlan } from './parse-plan.js';
import { renderInvalidPlan, renderParseResult, renderPlan, semanticWarningCodes, withWarningLine } from './render-plan.js';
import { validatePlan } from './validate-plan.js';

/**
 * The canonical text of a plan, as every reward model reads it: `renderPlan` of the canonical
 * plan with its semantic warnings as a last line (see `withWarningLine`), or
 * `INVALID PLAN: codes` for text that does not parse or a plan that does not validate (so
 * formatting noise never reaches the model and a bad plan is still scored).
 *
 * @example
 * canonicalPlanText('{"dom":"low","nodes":[],"answer":"4"}') // '<dom>low</dom>\n<answer>4</answer>'
 */
export function canonicalPlanText(plan: string | Plan, catalog: BlockCatalog = defaultBlockCatalog()): string {
  if (typeof plan === 'string') return renderParseResult(parsePlan(plan, { catalog }), catalog);
  const diagnostics = validatePlan(plan, catalog);
  if (diagnostics.length > 0) return renderInvalidPlan(diagnostics);
  return withWarningLine(renderPlan(plan, catalog), semanticWarningCodes(planObjectWarnings(plan)));
}

/**
 * The warnings a plan built in code would get from the parser's reference linking (its
 * params are checked strictly by `validatePlan`, so nothing else is ignored or repaired).
 */
export function planObjectWarnings(plan: Plan): PlanWarning[] {
  const warnings: PlanWarning[] = [];
  linkReferences(plan.nodes, [...plan.edges], warnings);
  return warnings;
}
