import type { Plan } from '../../core/plan.js';
import { defaultBlockCatalog, parsePlan, renderInvalidPlan, renderParseResult, renderPlan, validatePlan, type BlockCatalog } from '../../plan/index.js';

/**
 * The text a remote reward model reads before the plan. The template is fixed and versioned in
 * the name so a model fine-tuned on it elsewhere (exported pairs) sees exactly the same layout:
 *
 * ```
 * Task:
 * <task text>
 *
 * Plan:
 * <canonical plan>
 * ```
 *
 * @example
 * defaultRewardPrompt('What is 2+2?') // 'Task:\nWhat is 2+2?\n\nPlan:\n'
 */
export function defaultRewardPrompt(task: string): string {
  return `Task:\n${task}\n\nPlan:\n`;
}

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
