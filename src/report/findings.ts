import { percent, points, pointsInterval } from './format-values.js';
import type { DemoResults } from './results-schema.js';

/** One thing the issues hoped to see, and whether this run shows it. */
export interface Finding {
  /** What was hoped for (issues 5-7), in a sentence. */
  hope: string;
  /** What this run measured, in a sentence. */
  measured: string;
  /** True when it held, false when not, null when this run cannot tell (a strategy or run missing). */
  held: boolean | null;
}

/**
 * The hoped-for results of issues 5, 6 and 7, checked against the run. They are stated in
 * advance and reported either way: a report that only lists what worked would be an advertisement.
 */
export function findings(results: DemoResults): Finding[] {
  return [...rmFindings(results.rm), ...bonFindings(results.bon), grpoFinding(results.grpo)];
}

function rmFindings(rm: DemoResults['rm']): Finding[] {
  return Object.entries(rm.baselines).map(([kind, baseline]) => ({
    hope: `The reward model beats the ${kind} baseline on held-out pairs (paired 95% interval above zero).`,
    measured: `${points(baseline.difference.diff)} points, 95% CI ${pointsInterval(baseline.difference.ci)}.`,
    held: baseline.beats,
  }));
}

function bonFindings(bon: DemoResults['bon']): Finding[] {
  const { strategies, paired, n } = bon;
  const { rm, single, oracle, majority, judge } = strategies;
  const list: Finding[] = [];
  const rmVsSingle = paired['rm-vs-single'];
  list.push({
    hope: `At N = ${n}, rm beats single by at least 5 points with a paired interval above zero.`,
    measured: rmVsSingle ? `${points(rmVsSingle.diff)} points, 95% CI ${pointsInterval(rmVsSingle.ci)}.` : 'rm or single was not run.',
    held: rmVsSingle ? rmVsSingle.diff >= 0.05 && rmVsSingle.ci[0] > 0 : null,
  });
  const gap = rm && single && oracle && oracle.accuracy > single.accuracy ? (rm.accuracy - single.accuracy) / (oracle.accuracy - single.accuracy) : undefined;
  list.push({
    hope: 'rm closes at least 40% of the gap from single to oracle.',
    measured: gap === undefined ? 'rm, single or oracle missing, or oracle no better than single.' : `It closes ${percent(gap)} of the gap (${percent(single!.accuracy)} → ${percent(rm!.accuracy)}, oracle ${percent(oracle!.accuracy)}).`,
    held: gap === undefined ? null : gap >= 0.4,
  });
  const spend = (summary: { tokens: { execution: number; verification: number } }) => summary.tokens.execution + summary.tokens.verification;
  const others = [majority && (['majority', majority] as const), judge && (['judge', judge] as const)].filter((entry) => !!entry);
  if (rm && others.length > 0) {
    const ratios = others.map(([name, summary]) => [name, spend(rm) / Math.max(1, spend(summary))] as const);
    list.push({
      hope: `rm’s execution plus verification tokens are at most one fifth of ${others.map(([name]) => name).join('’s and ')}’s.`,
      measured: ratios.map(([name, ratio]) => `${percent(ratio)} of ${name}’s`).join('; ') + '.',
      held: ratios.every(([, ratio]) => ratio <= 0.2),
    });
  }
  list.push(votingFinding(bon));
  return list;
}

/** rm-topk-vote or rm-adaptive matches majority within its paired interval at under half its tokens. */
function votingFinding(bon: DemoResults['bon']): Finding {
  const majority = bon.strategies.majority;
  const candidates = (['rm-topk-vote', 'rm-adaptive'] as const).flatMap((name) => {
    const summary = bon.strategies[name];
    const difference = bon.paired[`${name}-vs-majority`];
    return summary && difference && majority ? [{ name, difference, tokenShare: summary.tokens.total / Math.max(1, majority.tokens.total) }] : [];
  });
  const hope = 'rm-topk-vote or rm-adaptive matches majority (paired interval reaching zero or above) at less than half its tokens.';
  if (candidates.length === 0) return { hope, measured: 'majority or the rm voting strategies were not run.', held: null };
  return {
    hope,
    measured: candidates.map(({ name, difference, tokenShare }) => `${name}: ${points(difference.diff)} points ${pointsInterval(difference.ci)} at ${percent(tokenShare)} of majority’s tokens`).join('; ') + '.',
    held: candidates.some(({ difference, tokenShare }) => difference.ci[1] >= 0 && tokenShare < 0.5),
  };
}

function grpoFinding(grpo: DemoResults['grpo']): Finding {
  const rmGain = grpo.rm.accuracy - grpo.baseAccuracy;
  const executionGain = grpo.execution.accuracy - grpo.baseAccuracy;
  const tokenRatio = grpo.execution.trainingTokens.total / Math.max(1, grpo.rm.trainingTokens.total);
  const withCollection = grpo.execution.trainingTokens.total / Math.max(1, grpo.rm.trainingTokens.total + grpo.rmCollectionTokens.total);
  const share = executionGain > 0 ? rmGain / executionGain : undefined;
  return {
    hope: 'GRPO with rm reward reaches at least 90% of execution reward’s accuracy gain with at least 10x fewer training tokens.',
    measured:
      share === undefined
        ? `execution reward gained ${points(executionGain)} points, so there is no gain to compare with (rm: ${points(rmGain)}).`
        : `rm gained ${points(rmGain)} points (${percent(share)} of execution’s ${points(executionGain)}); execution spent ${tokenRatio.toFixed(1)}x rm’s training tokens (${withCollection.toFixed(2)}x once the tokens spent collecting the reward model’s training episodes are counted).`,
    held: share === undefined ? null : share >= 0.9 && tokenRatio >= 10,
  };
}
