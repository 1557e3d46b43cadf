import type { SelectionStrategy } from '../selection-strategy.js';
import { isCorrect, rankCandidates } from '../vote-executed.js';
import { sampledIndices, scoreVerification } from './score-verification.js';

/**
 * `rm+templates`: the reward model as a router. It scores the N sampled plans together with the
 * template plans of the pool (a small library of fixed plans) and executes the best one, so
 * Best-of-N is never worse than the best template the model recognises. Ties go to the earliest
 * sampled plan, then the first template.
 */
export const rmWithTemplatesStrategy: SelectionStrategy = {
  name: 'rm+templates',
  async select(context) {
    const candidates = [...sampledIndices(context.n), ...context.templates.map((template) => template.index)];
    const best = rankCandidates(await context.scores(), candidates)[0] ?? 0;
    const episode = await context.execute(best);
    return {
      correct: isCorrect(episode),
      chosen: best,
      executed: [best],
      plansWritten: context.n,
      usedTemplates: true,
      verification: scoreVerification(context, candidates),
    };
  },
};
