import type { SelectionStrategy } from '../selection-strategy.js';
import { rankByScore, voteExecuted } from '../vote-executed.js';
import { executeCandidates } from './execute-candidates.js';
import { candidateScores, scoreVerification } from './score-verification.js';

/**
 * `rm-topk-vote`: executes the k best-scored candidates (all N when N < k) and takes their
 * majority answer; ties go to the better-scored answer.
 */
export const rmTopKVoteStrategy: SelectionStrategy = {
  name: 'rm-topk-vote',
  async select(context) {
    const top = rankByScore(await candidateScores(context), context.n).slice(0, Math.max(1, context.topK));
    const episodes = await executeCandidates(context, top);
    return { ...voteExecuted(top, episodes), executed: top, plansWritten: context.n, verification: scoreVerification(context) };
  },
};
