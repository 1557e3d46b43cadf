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

/** Reward models read plans in this form; it lives with the plan renderers. */
export { canonicalPlanText } from '../../plan/index.js';
