import type { Plan } from '../../core/plan.js';
import { defaultBlockCatalog, parsePlan, renderInvalidPlan, renderParseResult, renderPlan, validatePlan, type BlockCatalog } from '../../plan/index.js';

/**
 * The text a remote reward model reads before the plan: the task text itself, so the query is
 * `task + plan` exactly as TRL's RewardTrainer reads a pair exported by `orchrm pairs export
 * --format trl` (it concatenates `prompt` and `chosen`; `prompt` is the task text). A model
 * fine-tuned on the export therefore sees the same layout here. Pass `formatPrompt` when the
 * remote model was trained with another template.
 *
 * @example
 * defaultRewardPrompt('What is 2+2?') // 'What is 2+2?'
 */
export function defaultRewardPrompt(task: string): string {
  return task;
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
