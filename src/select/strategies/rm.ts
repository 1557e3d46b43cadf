import type { SelectionStrategy } from '../selection-strategy.js';
import { chooseByObjective } from '../selection-objective.js';
import { isCorrect, rankByScore } from '../vote-executed.js';
import { candidateScores, scoreVerification } from './score-verification.js';

/**
 * `rm`: scores all N with the reward model and executes only the top one (ties: earliest
 * sample), or under a cost objective the one the objective picks (`chooseByObjective`).
 */
export const rmStrategy: SelectionStrategy = {
  name: 'rm',
  async select(context) {
    const ranked = rankByScore(await candidateScores(context), context.n);
    const best = context.objective.kind === 'accuracy' || context.n <= 1 ? (ranked[0] ?? 0) : chooseByObjective(ranked, await context.estimates(), context.objective);
    const episode = await context.execute(best);
    return { correct: isCorrect(episode), chosen: best, executed: [best], plansWritten: context.n, verification: scoreVerification(context) };
  },
};
