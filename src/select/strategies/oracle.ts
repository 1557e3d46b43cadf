import { emptyUsage } from '../../core/index.js';
import type { SelectionStrategy } from '../selection-strategy.js';
import { isCorrect } from '../vote-executed.js';
import { allCandidates, executeCandidates } from './execute-candidates.js';

/** `oracle`: executes all N and is correct when any is (an upper bound on selection, never a method). */
export const oracleStrategy: SelectionStrategy = {
  name: 'oracle',
  async select(context) {
    const indices = allCandidates(context.n);
    const episodes = await executeCandidates(context, indices);
    const chosen = indices.find((index) => isCorrect(episodes.get(index)));
    return { correct: chosen !== undefined, chosen, executed: indices, plansWritten: context.n, verification: emptyUsage() };
  },
};
