import type { SelectionStrategy } from '../selection-strategy.js';
import { rankByScore, voteExecuted } from '../vote-executed.js';
import { executeCandidates } from './execute-candidates.js';
import { candidateScores, scoreVerification } from './score-verification.js';

/**
 * `rm-adaptive`: executes the best-scored candidate, then more in score order while the reward
 * model's margin between the best and the next is below `adaptiveMargin` (it is unsure which
 * is better), then takes the majority answer; ties go to the better-scored answer. Confident
 * scores cost one execution; flat ones cost more.
 */
export const rmAdaptiveStrategy: SelectionStrategy = {
  name: 'rm-adaptive',
  async select(context) {
    const scores = await candidateScores(context);
    const ranked = rankByScore(scores, context.n);
    const bestScore = scores[ranked[0] ?? 0] ?? 0;
    const executed = [ranked[0] ?? 0];
    for (const next of ranked.slice(1)) {
      // Ranked descending, so once the margin is reached every later candidate is further away.
      if (!(bestScore - (scores[next] ?? Number.NEGATIVE_INFINITY) < context.adaptiveMargin)) break;
      executed.push(next);
    }
    const episodes = await executeCandidates(context, executed);
    return { ...voteExecuted(executed, episodes), executed, plansWritten: context.n, verification: scoreVerification(context) };
  },
};
