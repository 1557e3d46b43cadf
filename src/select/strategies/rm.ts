import type { SelectionStrategy } from '../selection-strategy.js';
import { isCorrect, rankByScore } from '../vote-executed.js';
import { candidateScores, scoreVerification } from './score-verification.js';

/** `rm`: scores all N with the reward model and executes only the top one (ties: earliest sample). */
export const rmStrategy: SelectionStrategy = {
  name: 'rm',
  async select(context) {
    const best = rankByScore(await candidateScores(context), context.n)[0] ?? 0;
    const episode = await context.execute(best);
    return { correct: isCorrect(episode), chosen: best, executed: [best], plansWritten: context.n, verification: scoreVerification(context) };
  },
};
