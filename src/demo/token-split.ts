import type { UsageByRole } from '../core/index.js';
import type { TokenSplit } from '../report/index.js';
import type { TaskTokenSplit } from '../rm/index.js';

/** The report's token split of a usage-by-role total. */
export function tokenSplit(usage: UsageByRole): TokenSplit {
  const { orchestrator, execution, verification } = usage;
  return {
    orchestrator: orchestrator.totalTokens,
    execution: execution.totalTokens,
    verification: verification.totalTokens,
    total: orchestrator.totalTokens + execution.totalTokens + verification.totalTokens,
  };
}

/** Sum of token splits. */
export function addTokenSplits(...splits: readonly TokenSplit[]): TokenSplit {
  const sum: TokenSplit = { orchestrator: 0, execution: 0, verification: 0, total: 0 };
  for (const split of splits) {
    sum.orchestrator += split.orchestrator;
    sum.execution += split.execution;
    sum.verification += split.verification;
    sum.total += split.total;
  }
  return sum;
}

/** A task's collection tokens (`collectionTokenSplitsByTask`) as a token split; zero for a task with no collected episode. */
export function taskTokenSplit(split: TaskTokenSplit | undefined): TokenSplit {
  const { orchestrator = 0, execution = 0, verification = 0 } = split ?? {};
  return { orchestrator, execution, verification, total: orchestrator + execution + verification };
}
