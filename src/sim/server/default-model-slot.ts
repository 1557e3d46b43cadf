import type { ModelSlot } from '../../core/index.js';

/** The judge model `orchrm sim serve` lists and answers (Best-of-N's judge strategies, LLM-judge grading). */
export const SIM_JUDGE_MODEL = 'sim-judge';

/**
 * The slot a served model answers as: names starting `sim-orchestrator` write plans,
 * `sim-judge` judges, anything else is a worker tier.
 *
 * @example
 * defaultModelSlot('sim-orchestrator-base'); // 'orchestrator'
 */
export function defaultModelSlot(model: string): ModelSlot {
  if (model.startsWith('sim-orchestrator')) return 'orchestrator';
  if (model.startsWith('sim-judge')) return 'judge';
  return 'worker';
}
