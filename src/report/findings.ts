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
 * The hoped-for results of issues 5, 6, 7 and 13, checked against the run. They are stated in
 * advance and reported either way: a report that only lists what worked would be an advertisement.
 */
export function findings(results: DemoResults): Finding[] {
  return [...rmFindings(results), ...sourceFindings(results), ...familyFindings(results), ...bonFindings(results.bon, results.scenario), grpoFinding(results.grpo)];
}

const measuredDifference = (difference: { diff: number; ci: readonly [number, number]; pairs?: number; measuredOn?: string }) =>
  `${points(difference.diff)} points, 95% CI ${pointsInterval(difference.ci)}${difference.pairs === undefined ? '' : ` on ${difference.pairs.toLocaleString('en-US')} ${difference.measuredOn ?? 'pairs'}`}.`;

function rmFindings(results: DemoResults): Finding[] {
  return Object.entries(results.rm.baselines).map(([kind, baseline]) => {
    const onValidPairs = baseline.difference.measuredOn === 'valid-vs-valid outcome pairs';
    const strongest = kind === 'structure-only' && onValidPairs;
    return {
      hope: strongest
        ? 'The reward model beats the structure-only baseline (no words of task or plan) by at least 3 points on held-out valid-vs-valid outcome pairs, interval above zero.'
        : `The reward model beats the ${kind} baseline on held-out ${onValidPairs ? 'valid-vs-valid outcome pairs' : 'pairs'} (paired 95% interval above zero).`,
      measured: measuredDifference(baseline.difference),
      held: strongest ? baseline.beats && baseline.difference.diff >= 0.03 : baseline.beats,
    };
  });
}

/** Issue 13: adding sources must not hurt, and label-free pairs must nearly match outcome pairs. */
function sourceFindings(results: DemoResults): Finding[] {
  const list: Finding[] = [];
  const { outcomeOnly, labelFree } = results;
  if (outcomeOnly !== undefined) {
    // Stored as outcome-only minus the main model; the hope is about the main model minus outcome-only.
    const flipped = { ...outcomeOnly.difference, diff: -outcomeOnly.difference.diff, ci: [-outcomeOnly.difference.ci[1], -outcomeOnly.difference.ci[0]] as [number, number] };
    list.push({
      hope: 'Training on every source is not worse than training on outcome pairs only, on held-out valid-vs-valid outcome pairs (the interval of the difference reaches zero or above).',
      measured: `every source minus outcome only: ${measuredDifference(flipped)}`,
      held: flipped.ci[1] >= 0,
    });
  }
  if (labelFree !== undefined) {
    list.push({
      hope: 'The label-free model (no grade read while mining) is within 3 points of the outcome-only model on held-out valid-vs-valid outcome pairs.',
      measured: `label-free minus outcome only: ${measuredDifference(labelFree.difference)}`,
      held: labelFree.difference.diff >= -0.03,
    });
  }
  return list;
}

/** Issue 13: rm beats single by 10 points on every family; with the template pool it matches the best fixed plan of each family. */
function familyFindings(results: DemoResults): Finding[] {
  const rows = results.families.filter((row) => row.paired !== undefined);
  if (rows.length === 0) return [];
  const gains = rows.map((row) => ({ family: row.family, difference: row.paired!['rm-vs-single'] }));
  const pool = rows.map((row) => ({ family: row.family, template: row.bestFixed, difference: row.paired!['rm+templates-vs-best-fixed'] }));
  const list: Finding[] = [
    {
      hope: `At N = ${results.bon.n}, rm beats single by at least 10 points on every family, each interval above zero.`,
      measured: gains.map(({ family, difference }) => (difference ? `${family} ${points(difference.diff)} ${pointsInterval(difference.ci)}` : `${family}: not run`)).join('; ') + '.',
      held: gains.every(({ difference }) => difference !== undefined && difference.diff >= 0.1 && difference.ci[0] > 0),
    },
  ];
  if (pool.some(({ difference }) => difference !== undefined)) {
    list.push({
      hope: `With the template pool, rm+templates is at least as accurate as the best fixed plan of each family (chosen afterwards on the same tasks).`,
      measured: pool.map(({ family, template, difference }) => (difference ? `${family} vs ${template ?? 'best fixed'}: ${points(difference.diff)} ${pointsInterval(difference.ci)}` : `${family}: not run`)).join('; ') + '.',
      held: pool.every(({ difference }) => difference !== undefined && difference.diff >= 0),
    });
  }
  return list;
}

function bonFindings(bon: DemoResults['bon'], scenario: string): Finding[] {
  const { strategies, paired, n } = bon;
  const { rm, single, oracle, majority, judge } = strategies;
  const list: Finding[] = [];
  const rmVsFirstValid = paired['rm-vs-first-valid'];
  if (rmVsFirstValid !== undefined) {
    list.push(
      scenario === 'control'
        ? {
            hope: 'On the control scenario, where plan choice cannot matter, rm is within 2 points of executing the first valid plan.',
            measured: measuredDifference(rmVsFirstValid),
            held: Math.abs(rmVsFirstValid.diff) <= 0.02,
          }
        : {
            hope: 'rm beats executing the first valid plan (its gain is more than avoiding invalid plans), interval above zero.',
            measured: measuredDifference(rmVsFirstValid),
            held: rmVsFirstValid.ci[0] > 0,
          },
    );
  }
  const rmVsSingle = paired['rm-vs-single'];
  list.push({
    hope: `At N = ${n}, rm beats single by at least 10 points with a paired interval above zero.`,
    measured: rmVsSingle ? `${points(rmVsSingle.diff)} points, 95% CI ${pointsInterval(rmVsSingle.ci)}.` : 'rm or single was not run.',
    held: rmVsSingle ? rmVsSingle.diff >= 0.1 && rmVsSingle.ci[0] > 0 : null,
  });
  const gap = rm && single && oracle && oracle.accuracy > single.accuracy ? (rm.accuracy - single.accuracy) / (oracle.accuracy - single.accuracy) : undefined;
  list.push({
    hope: 'rm closes at least 50% of the gap from single to oracle.',
    measured: gap === undefined ? 'rm, single or oracle missing, or oracle no better than single.' : `It closes ${percent(gap)} of the gap (${percent(single!.accuracy)} → ${percent(rm!.accuracy)}, oracle ${percent(oracle!.accuracy)}).`,
    held: gap === undefined ? null : gap >= 0.5,
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
