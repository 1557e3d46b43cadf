import type { OrchestratorRef } from '../../core/index.js';
import type { CheckpointMinerConfig } from '../mining-config.js';

/** Which of two checkpoints is later, and what said so. */
export interface CheckpointOrder {
  later: 'first' | 'second';
  decidedBy: 'step' | 'order' | 'base';
}

/**
 * Orders two checkpoints of the same orchestrator: by training step when both record one and
 * they differ; else by position in `config.order`; else a base checkpoint (`config.baseCheckpoints`)
 * is earlier than any other. Undefined when they are the same checkpoint, belong to different
 * orchestrators, or nothing tells them apart.
 * @example compareCheckpoints({ name: 'sim', checkpoint: 'base' }, { name: 'sim', checkpoint: 'rl' }, config) // { later: 'second', decidedBy: 'base' }
 */
export function compareCheckpoints(first: OrchestratorRef, second: OrchestratorRef, config: CheckpointMinerConfig): CheckpointOrder | undefined {
  if (first.name !== second.name) return undefined;
  if (first.checkpoint === second.checkpoint && first.step === second.step) return undefined;
  if (first.step !== undefined && second.step !== undefined && first.step !== second.step) {
    return { later: first.step > second.step ? 'first' : 'second', decidedBy: 'step' };
  }
  if (first.checkpoint === undefined || second.checkpoint === undefined || first.checkpoint === second.checkpoint) return undefined;
  const firstIndex = config.order.indexOf(first.checkpoint);
  const secondIndex = config.order.indexOf(second.checkpoint);
  if (firstIndex >= 0 && secondIndex >= 0) return { later: firstIndex > secondIndex ? 'first' : 'second', decidedBy: 'order' };
  const firstIsBase = config.baseCheckpoints.includes(first.checkpoint);
  const secondIsBase = config.baseCheckpoints.includes(second.checkpoint);
  if (firstIsBase !== secondIsBase) return { later: firstIsBase ? 'second' : 'first', decidedBy: 'base' };
  return undefined;
}
