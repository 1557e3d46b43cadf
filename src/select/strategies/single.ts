import { emptyUsage } from '../../core/index.js';
import type { SelectionStrategy } from '../selection-strategy.js';
import { isCorrect } from '../vote-executed.js';

/** `single`: the orchestrator writes one plan and it is executed (the N = 1 baseline at any N). */
export const singleStrategy: SelectionStrategy = {
  name: 'single',
  async select(context) {
    const episode = await context.execute(0);
    return { correct: isCorrect(episode), chosen: 0, executed: [0], plansWritten: 1, verification: emptyUsage() };
  },
};
