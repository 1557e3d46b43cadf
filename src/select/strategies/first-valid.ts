import { emptyUsage } from '../../core/index.js';
import type { SelectionStrategy } from '../selection-strategy.js';
import { isCorrect } from '../vote-executed.js';

/**
 * `first-valid`: the orchestrator writes plans one at a time until one parses and validates
 * (at most N), and that one is executed; when none of the N does, the first is "executed"
 * (an invalid plan runs nothing). The sceptic's baseline for any gain that only comes from
 * avoiding invalid plans.
 */
export const firstValidStrategy: SelectionStrategy = {
  name: 'first-valid',
  async select(context) {
    const found = context.valid.findIndex(Boolean);
    const chosen = found === -1 ? 0 : found;
    const episode = await context.execute(chosen);
    return { correct: isCorrect(episode), chosen, executed: [chosen], plansWritten: found === -1 ? context.n : found + 1, verification: emptyUsage() };
  },
};
