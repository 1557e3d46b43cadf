import type { ModelSlot } from '../../core/llm-call.js';

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
