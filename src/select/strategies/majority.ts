import { emptyUsage } from '../../core/index.js';
import type { SelectionStrategy } from '../selection-strategy.js';
import { voteExecuted } from '../vote-executed.js';
import { allCandidates, executeCandidates } from './execute-candidates.js';

/** `majority`: executes all N and takes the majority answer (ties: the earliest sample's answer). */
export const majorityStrategy: SelectionStrategy = {
  name: 'majority',
  async select(context) {
    const indices = allCandidates(context.n);
    const episodes = await executeCandidates(context, indices);
    const vote = voteExecuted(indices, episodes);
    return { ...vote, executed: indices, plansWritten: context.n, verification: emptyUsage() };
  },
};
