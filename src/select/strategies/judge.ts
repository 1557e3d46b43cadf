import { emptyUsage } from '../../core/index.js';
import { buildTrajectoryJudgeMessages } from '../../prompts/index.js';
import type { SelectionStrategy } from '../selection-strategy.js';
import { isCorrect } from '../vote-executed.js';
import { askJudge } from './ask-judge.js';
import { allCandidates, executeCandidates } from './execute-candidates.js';

/**
 * `judge`: executes all N, then a judge model reads every trajectory (canonical plan,
 * intermediate outputs, final answer) and picks one; its call is the verification cost. With
 * one candidate there is nothing to judge and no call is made.
 */
export const judgeStrategy: SelectionStrategy = {
  name: 'judge',
  async select(context) {
    const indices = allCandidates(context.n);
    const episodes = await executeCandidates(context, indices);
    if (context.n === 1) return { correct: isCorrect(episodes.get(0)), chosen: 0, executed: indices, plansWritten: 1, verification: emptyUsage() };
    const messages = buildTrajectoryJudgeMessages(
      context.task.question,
      indices.map((index) => episodes.get(index)!),
      context.canonicalTexts.slice(0, context.n),
    );
    const verdict = await askJudge(context, messages);
    return {
      correct: isCorrect(episodes.get(verdict.choice)),
      chosen: verdict.choice,
      executed: indices,
      plansWritten: context.n,
      verification: verdict.usage,
      ...(verdict.failed && { judgeFailed: true }),
    };
  },
};
