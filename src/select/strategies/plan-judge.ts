import { emptyUsage } from '../../core/index.js';
import { buildPlanJudgeMessages } from '../../prompts/index.js';
import type { SelectionStrategy } from '../selection-strategy.js';
import { isCorrect } from '../vote-executed.js';
import { askJudge } from './ask-judge.js';

/**
 * `plan-judge`: a judge model reads the N canonical plans (nothing executed) and picks one,
 * which alone is executed: the generative alternative to a trained reward model. Its call is
 * the verification cost; with one candidate no call is made.
 */
export const planJudgeStrategy: SelectionStrategy = {
  name: 'plan-judge',
  async select(context) {
    const verdict =
      context.n === 1
        ? { choice: 0, usage: emptyUsage(), failed: false }
        : await askJudge(context, buildPlanJudgeMessages(context.task.question, context.canonicalTexts.slice(0, context.n)));
    const episode = await context.execute(verdict.choice);
    return {
      correct: isCorrect(episode),
      chosen: verdict.choice,
      executed: [verdict.choice],
      plansWritten: context.n,
      verification: verdict.usage,
      ...(verdict.failed && { judgeFailed: true }),
    };
  },
};
