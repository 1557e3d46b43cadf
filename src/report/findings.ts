import { deriveSeed, Rng } from '../core/index.js';
import { meanInterval, MIN_VERDICT_TASKS, tooFewToJudge, wilsonInterval } from '../rm/index.js';
import { describeTaskBlindMix } from '../select/index.js';
import { percent, points, pointsInterval, tokens as formatTokens } from './format-values.js';
import type { BonFrontierResult, DemoResults } from './results-schema.js';

/** What a run shows about one hope: it held, it did not, the sample is too small to say, or it was not measured. */
export type Verdict = 'held' | 'did not hold' | 'too few to judge' | 'not measured';

/** One thing the issues hoped to see, and whether this run shows it. */
export interface Finding {
  /** What was hoped for (issues 5-7, 13 and 21), in a sentence. */
  hope: string;
  /** What this run measured, in a sentence. */
  measured: string;
  /** The verdict, decided by the interval (never the point estimate alone) on a large enough sample. */
  verdict: Verdict;
  /** True when it held, false when not; null when the run cannot tell (too few to judge, or not measured). */
  held: boolean | null;
}

/**
 * The hoped-for results of issues 5, 6, 7, 13 and 21, checked against the run. They are stated
 * in advance and reported either way: a report that only lists what worked would be an
 * advertisement. Every verdict is decided by its 95% interval: a hope "at least X, interval above
 * zero" needs both; a bound ("within 2 points", "at most 3 points below") needs the whole
 * interval inside it. On fewer than 50 held-out tasks or 200 pairs the verdict is "too few to
 * judge" (`MIN_VERDICT_TASKS`, `MIN_VERDICT_PAIRS`).
 */
export function findings(results: DemoResults): Finding[] {
  return [...rmFindings(results), ...sourceFindings(results), ...familyFindings(results), ...bonFindings(results), ...frontierFindings(results), grpoFinding(results), ...billFindings(results)];
}

/**
 * Issue 22's targets for cost-aware selection, for each frontier the run measured (rm+templates,
 * and the template router alone): it matches best-fixed-per-family's accuracy at no more than half
 * its execution + verification tokens (not on control); no fixed plan is both cheaper and more
 * accurate than an operating point; on control, no saving beyond the cheapest fixed plan that
 * matches that accuracy.
 */
function frontierFindings(results: DemoResults): Finding[] {
  const { frontier, routerFrontier } = results.bon;
  return [
    ...(frontier === undefined ? [] : frontierTargets(frontier, 'cost-aware rm+templates', isControl(results))),
    ...(routerFrontier === undefined ? [] : frontierTargets(routerFrontier, 'cost-aware template choice by the template router alone (rm-templates-only, each template priced by the execution tokens the router expects on the task)', isControl(results))),
  ];
}

function frontierTargets(frontier: BonFrontierResult, what: string, control: boolean): Finding[] {
  const What = what.charAt(0).toUpperCase() + what.slice(1);
  const tooFew = tooFewToJudge({ tasks: frontier.tasks });
  const perFamily = frontier.bestFixedPerFamily.tokens.executionPlusVerification;
  const at = frontier.tokensAtBestFixedAccuracy;
  const atText =
    at === null
      ? `No operating point matches best-fixed-per-family's ${percent(frontier.bestFixedPerFamily.accuracy)} (every paired interval below 0).`
      : `${frontier.pointAtBestFixedAccuracy} matches it at ${Math.round(at).toLocaleString('en-US')} execution + verification tokens per task, ${percent(frontier.shareOfBestFixedPerFamilyTokens ?? 0)} of best-fixed-per-family's ${Math.round(perFamily).toLocaleString('en-US')}.`;
  const dominated = frontier.points.filter((point) => point.dominatedBy.length > 0);
  const list: Finding[] = [];
  const cheapest = frontier.cheapestFixedAtBestFixedAccuracy;
  if (control) {
    list.push(
      judged(
        `On the control scenario, ${what} saves no more than the cheapest fixed plan that matches best-fixed-per-family's accuracy: its tokens at that accuracy are not below that plan's.`,
        `${atText} ${cheapest === null ? 'No fixed plan matches it.' : `The cheapest fixed plan that does is ${cheapest.name}, at ${Math.round(cheapest.executionPlusVerification).toLocaleString('en-US')}.`}`,
        at === null || cheapest === null || at >= cheapest.executionPlusVerification,
        tooFew,
      ),
    );
    // Stated in issue 22's eighth round, before its first run: a router's saving on control judged against a fixed choice per family, which reads no task either.
    const perFamilyFixed = frontier.cheapestFixedPerFamilyAtBestFixedAccuracy;
    if (perFamilyFixed !== undefined) {
      list.push(
        judged(
          `On the control scenario, ${what} saves no more than the cheapest fixed plan per family that is as accurate as best-fixed-per-family on every family: its tokens at that accuracy are not below that plan's.`,
          `${atText} The cheapest fixed plan per family as accurate on every family is ${Object.entries(perFamilyFixed.perSuite).map(([suite, name]) => `${name} for ${suite}`).join(', ')}, at ${Math.round(perFamilyFixed.executionPlusVerification).toLocaleString('en-US')}.`,
          at === null || at >= perFamilyFixed.executionPlusVerification,
          tooFew,
        ),
      );
    }
    // Declared in issue 22's thirteenth round before any run of its held-out control worlds: the two
    // rules above hold a fixed plan to best-fixed-per-family's accuracy, while the point only has to
    // reach it within its interval; at the same tokens, a task-blind mix makes the same trade.
    const mix = frontier.taskBlindMixAtBestFixedAccuracy;
    if (mix !== undefined) {
      list.push(
        judged(
          `On the control scenario, ${what} saves no more than reading no task can: where it first matches best-fixed-per-family, it is not more accurate than the best task-blind mix of fixed plans per family spending the same tokens (the paired interval of the point minus the mix reaches 0 or below).`,
          mix === null
            ? `${atText} Nothing to compare.`
            : `${atText} The best task-blind mix at ${Math.round(mix.executionPlusVerification).toLocaleString('en-US')} tokens (${describeTaskBlindMix(mix.perSuite)}) reaches ${percent(mix.accuracy)}; the point minus the mix: ${measuredDifference(mix.pointMinusMix)}`,
          mix === null || mix.pointMinusMix.ci[0] <= 0,
          tooFew,
        ),
      );
    }
  } else {
    list.push(judged(`${What} matches best-fixed-per-family's accuracy (paired interval reaching 0) at no more than 50% of its execution + verification tokens.`, atText, at !== null && (frontier.shareOfBestFixedPerFamilyTokens ?? 1) <= 0.5, tooFew));
  }
  list.push(
    judged(
      `No fixed plan is both cheaper and more accurate than any operating point of ${what} (point estimates).`,
      dominated.length === 0 ? `None of ${frontier.points.length} operating points is dominated.` : `${dominated.length} of ${frontier.points.length} ${dominated.length === 1 ? 'is' : 'are'}: ${dominated.map((point) => `${point.label} by ${point.dominatedBy.join(', ')}`).join('; ')}.`,
      frontier.undominated,
      tooFew,
    ),
  );
  return list;
}

/** Whether the run's scenario is a control (`scenarioControl`; before it was recorded, the scenario named `control`). */
function isControl(results: DemoResults): boolean {
  return results.scenarioControl ?? results.scenario === 'control';
}

/** A finding from its hope, what was measured, whether it held and, when too small, why. */
function judged(hope: string, measured: string, held: boolean | null, tooFew?: string): Finding {
  if (held === null) return { hope, measured, verdict: 'not measured', held: null };
  if (tooFew !== undefined) return { hope, measured: `${measured} Too few to judge: ${tooFew}.`, verdict: 'too few to judge', held: null };
  return { hope, measured, verdict: held ? 'held' : 'did not hold', held };
}

const measuredDifference = (difference: { diff: number; ci: readonly [number, number]; pairs?: number; measuredOn?: string }) =>
  `${points(difference.diff)} points, 95% CI ${pointsInterval(difference.ci)}${difference.pairs === undefined ? '' : ` on ${difference.pairs.toLocaleString('en-US')} ${difference.measuredOn ?? 'pairs'}`}.`;

/** Whether an interval lies inside [-bound, +bound]. */
const within = (ci: readonly [number, number], bound: number) => ci[0] >= -bound && ci[1] <= bound;

function rmFindings(results: DemoResults): Finding[] {
  const { rm } = results;
  return Object.entries(rm.baselines).map(([kind, baseline]) => {
    const onValidPairs = baseline.difference.measuredOn === 'valid-vs-valid outcome pairs';
    const pairs = baseline.difference.pairs ?? (onValidPairs ? rm.outcomePairs?.validVsValid.total : rm.heldOut.pairs);
    const strongest = kind === 'structure-only' && onValidPairs;
    const { diff, ci } = baseline.difference;
    return judged(
      strongest
        ? 'The reward model beats the structure-only baseline (no words of task or plan) by at least 3 points on held-out valid-vs-valid outcome pairs, interval above zero.'
        : `The reward model beats the ${kind} baseline on held-out ${onValidPairs ? 'valid-vs-valid outcome pairs' : 'pairs'} (paired 95% interval above zero).`,
      measuredDifference({ ...baseline.difference, ...(pairs !== undefined && { pairs, measuredOn: baseline.difference.measuredOn ?? 'pairs' }) }),
      strongest ? diff >= 0.03 && ci[0] > 0 : ci[0] > 0,
      tooFewToJudge({ tasks: rm.heldOut.tasks, pairs: pairs ?? 0 }),
    );
  });
}

/** Issue 13: adding sources must not hurt, and label-free pairs must nearly match outcome pairs. */
function sourceFindings(results: DemoResults): Finding[] {
  const list: Finding[] = [];
  const { outcomeOnly, labelFree, rm } = results;
  const sample = (pairs: number | undefined) => tooFewToJudge({ tasks: rm.heldOut.tasks, pairs: pairs ?? rm.outcomePairs?.validVsValid.total ?? 0 });
  if (outcomeOnly !== undefined) {
    // Stored as outcome-only minus the main model; the hope is about the main model minus outcome-only.
    const flipped = { ...outcomeOnly.difference, diff: -outcomeOnly.difference.diff, ci: [-outcomeOnly.difference.ci[1], -outcomeOnly.difference.ci[0]] as [number, number] };
    list.push(
      judged(
        'Training on every source is not worse than training on outcome pairs only, on held-out valid-vs-valid outcome pairs (the interval of the difference reaches zero or above).',
        `every source minus outcome only: ${measuredDifference(flipped)}`,
        flipped.ci[1] >= 0,
        sample(flipped.pairs),
      ),
    );
  }
  if (labelFree !== undefined) {
    list.push(
      judged(
        'The label-free model (no grade read while mining) is within 3 points of the outcome-only model on held-out valid-vs-valid outcome pairs: the interval of label-free minus outcome-only reaches no lower than -3 points.',
        `label-free minus outcome only: ${measuredDifference(labelFree.difference)}`,
        labelFree.difference.ci[0] >= -0.03,
        sample(labelFree.difference.pairs),
      ),
    );
  }
  return list;
}

/**
 * Issues 13 and 21: rm beats single by 10 points on every family; with the template pool it is
 * at least as good as the best fixed plan of each family (by 5 points on the default world), and
 * its routing among the templates wins where it switches.
 */
function familyFindings(results: DemoResults): Finding[] {
  const rows = results.families.filter((row) => row.paired !== undefined);
  if (rows.length === 0) return [];
  const fewest = Math.min(...rows.map((row) => row.tasks));
  const familiesTooFew = fewest < MIN_VERDICT_TASKS ? tooFewToJudge({ tasks: fewest })!.replace(/^/, 'the smallest family has ') : undefined;
  const gains = rows.map((row) => ({ family: row.family, difference: row.paired!['rm-vs-single'] }));
  const list: Finding[] = [
    judged(
      `At N = ${results.bon.n}, rm beats single by at least 10 points on every family, each interval above zero.`,
      gains.map(({ family, difference }) => (difference ? `${family} ${points(difference.diff)} ${pointsInterval(difference.ci)}` : `${family}: not run`)).join('; ') + '.',
      gains.every(({ difference }) => difference !== undefined && difference.diff >= 0.1 && difference.ci[0] > 0),
      familiesTooFew,
    ),
  ];
  const switching = rows.flatMap((row) => (row.switching ?? []).filter((entry) => entry.strategy === 'rm-templates-only').map((entry) => ({ family: row.family, ...entry })));
  if (switching.length > 0 && !isControl(results)) {
    list.push(
      judged(
        'Choosing among the templates alone (rm-templates-only), the model’s switches away from each family’s best fixed template win at least twice as often as they lose, on the same tasks (and more often than not: the interval of the winning share above one half).',
        switching
          .map(({ family, bestFixed, tasks, switched, wins, losses }) => {
            const share = wilsonInterval(wins, wins + losses);
            return `${family} vs ${bestFixed}: switched on ${switched} of ${tasks} tasks, ${wins} won, ${losses} lost${wins + losses > 0 ? ` (winning share ${percent(wins / (wins + losses))}, 95% CI ${percent(share.low)}–${percent(share.high)})` : ''}`;
          })
          .join('; ') + '.',
        switching.every(({ wins, losses }) => wins >= 2 * losses && wins > 0 && wilsonInterval(wins, wins + losses).low > 0.5),
        familiesTooFew,
      ),
    );
  }
  return list;
}

function bonFindings(results: DemoResults): Finding[] {
  const { bon } = results;
  const { strategies, paired, n } = bon;
  const { rm, majority, judge } = strategies;
  const tooFew = tooFewToJudge({ tasks: bon.tasks });
  const list: Finding[] = [];
  const pool = paired['rm+templates-vs-best-fixed-per-family'];
  const rmVsFirstValid = paired['rm-vs-first-valid'];
  if (isControl(results)) {
    if (rmVsFirstValid !== undefined) {
      list.push(judged('On the control scenario, where plan choice cannot matter, rm is within 2 points of executing the first valid plan (the whole interval).', measuredDifference(rmVsFirstValid), within(rmVsFirstValid.ci, 0.02), tooFew));
    }
    if (pool !== undefined) {
      list.push(judged('On the control scenario, rm+templates is within 2 points of the best fixed plan per family (the whole interval).', measuredDifference(pool), within(pool.ci, 0.02), tooFew));
    }
  } else {
    if (rmVsFirstValid !== undefined) {
      list.push(judged('rm beats executing the first valid plan (its gain is more than avoiding invalid plans), interval above zero.', measuredDifference(rmVsFirstValid), rmVsFirstValid.ci[0] > 0, tooFew));
    }
    if (pool !== undefined) {
      list.push(
        judged(
          'With the template pool, rm+templates is at least as accurate as the best fixed plan per family (chosen afterwards on the same tasks): at or above it, the interval’s low end at -2 points or above.',
          measuredDifference(pool),
          pool.diff >= 0 && pool.ci[0] >= -0.02,
          tooFew,
        ),
        judged('With the template pool, rm+templates beats the best fixed plan per family by at least 5 points, interval above zero.', measuredDifference(pool), pool.diff >= 0.05 && pool.ci[0] > 0, tooFew),
      );
    }
  }
  const rmVsSingle = paired['rm-vs-single'];
  list.push(
    judged(
      `At N = ${n}, rm beats single by at least 10 points with a paired interval above zero.`,
      rmVsSingle ? `${points(rmVsSingle.diff)} points, 95% CI ${pointsInterval(rmVsSingle.ci)}.` : 'rm or single was not run.',
      rmVsSingle ? rmVsSingle.diff >= 0.1 && rmVsSingle.ci[0] > 0 : null,
      tooFew,
    ),
  );
  list.push(gapFinding(results, tooFew));
  const spend = (summary: { tokens: { execution: number; verification: number } }) => summary.tokens.execution + summary.tokens.verification;
  const others = [majority && (['majority', majority] as const), judge && (['judge', judge] as const)].filter((entry) => !!entry);
  if (rm && others.length > 0) {
    const ratios = others.map(([name, summary]) => [name, spend(rm) / Math.max(1, spend(summary))] as const);
    // Token totals are counted on these tasks, not estimated, so no interval: the ratio is the run's.
    list.push(
      judged(
        `rm’s execution plus verification tokens are at most one fifth of ${others.map(([name]) => name).join('’s and ')}’s (token totals of this run, counted exactly).`,
        ratios.map(([name, ratio]) => `${percent(ratio)} of ${name}’s`).join('; ') + '.',
        ratios.every(([, ratio]) => ratio <= 0.2),
        tooFew,
      ),
    );
  }
  list.push(votingFinding(bon, tooFew));
  return list;
}

/** Bootstrap resamples of the gap-closed ratio. */
const GAP_RESAMPLES = 2000;

/**
 * rm closes at least half of the single -> oracle gap: the ratio (rm - single) / (oracle - single)
 * with a 95% bootstrap interval over the test tasks (from the per-task picks); held when its low
 * end is at or above one half.
 */
function gapFinding(results: DemoResults, tooFew: string | undefined): Finding {
  const hope = 'rm closes at least 50% of the gap from single to oracle (the interval’s low end at 50% or above).';
  const { single, rm, oracle } = results.bon.strategies;
  if (!single || !rm || !oracle || oracle.accuracy <= single.accuracy) return judged(hope, 'rm, single or oracle missing, or oracle no better than single.', null);
  const gap = (rm.accuracy - single.accuracy) / (oracle.accuracy - single.accuracy);
  const described = `It closes ${percent(gap)} of the gap (${percent(single.accuracy)} → ${percent(rm.accuracy)}, oracle ${percent(oracle.accuracy)})`;
  const tasks = (results.bon.picks ?? []).flatMap((task) => {
    const [s, r, o] = [task.strategies.single, task.strategies.rm, task.strategies.oracle];
    return s && r && o ? [[Number(s.correct), Number(r.correct), Number(o.correct)] as const] : [];
  });
  if (tasks.length === 0) return judged(hope, `${described}; this results.json holds no per-task picks to draw its interval from.`, null);
  const rng = new Rng(deriveSeed(results.seed, 'gap-closed'));
  const ratios: number[] = [];
  for (let resample = 0; resample < GAP_RESAMPLES; resample++) {
    let [s, r, o] = [0, 0, 0];
    for (let draw = 0; draw < tasks.length; draw++) {
      const task = tasks[Math.floor(rng.next() * tasks.length)]!;
      s += task[0];
      r += task[1];
      o += task[2];
    }
    // A resample where the oracle gains nothing over single closes no gap.
    ratios.push(o > s ? (r - s) / (o - s) : 0);
  }
  ratios.sort((a, b) => a - b);
  const low = ratios[Math.floor(0.025 * (GAP_RESAMPLES - 1))]!;
  const high = ratios[Math.ceil(0.975 * (GAP_RESAMPLES - 1))]!;
  return judged(hope, `${described}, 95% CI ${percent(low)}–${percent(high)}.`, low >= 0.5, tooFew);
}

/** rm-topk-vote or rm-adaptive matches majority within its paired interval at under half its tokens. */
function votingFinding(bon: DemoResults['bon'], tooFew: string | undefined): Finding {
  const majority = bon.strategies.majority;
  const candidates = (['rm-topk-vote', 'rm-adaptive'] as const).flatMap((name) => {
    const summary = bon.strategies[name];
    const difference = bon.paired[`${name}-vs-majority`];
    return summary && difference && majority ? [{ name, difference, tokenShare: summary.tokens.total / Math.max(1, majority.tokens.total) }] : [];
  });
  const hope = 'rm-topk-vote or rm-adaptive matches majority (paired interval reaching zero or above) at less than half its tokens.';
  if (candidates.length === 0) return judged(hope, 'majority or the rm voting strategies were not run.', null);
  return judged(
    hope,
    candidates.map(({ name, difference, tokenShare }) => `${name}: ${points(difference.diff)} points ${pointsInterval(difference.ci)} at ${percent(tokenShare)} of majority’s tokens`).join('; ') + '.',
    candidates.some(({ difference, tokenShare }) => difference.ci[1] >= 0 && tokenShare < 0.5),
    tooFew,
  );
}

/** Seeds a GRPO verdict needs (issue 21: one run of execution-reward GRPO moved by 4.5 points across runs). */
const MIN_GRPO_SEEDS = 3;

/**
 * GRPO with rm reward reaches 90% of execution reward's gain at a tenth of the tokens: per seed,
 * rm's gain minus 0.9 times execution's gain (same seed, same start and held-out draws), whose
 * mean's Student-t interval over seeds must lie at or above zero.
 */
function grpoFinding(results: DemoResults): Finding {
  const { grpo } = results;
  const hope = 'GRPO with rm reward reaches at least 90% of execution reward’s accuracy gain (per seed, rm’s gain minus 0.9 times execution’s: interval over seeds at or above zero) with at least 10x fewer training tokens.';
  const seeds = grpo.seeds;
  const rmTokens = seeds?.rm.trainingTokens.total ?? grpo.rm.trainingTokens.total;
  const executionTokens = seeds?.execution.trainingTokens.total ?? grpo.execution.trainingTokens.total;
  const tokenRatio = executionTokens / Math.max(1, rmTokens);
  // With the whole bill (version 4) the paid-once stages are every one the bill lists; before, the collection alone.
  const paidOnce = results.bill === undefined ? grpo.rmCollectionTokens.total : results.bill.rewardModel.total.total - results.bill.rewardModel.stages.filter((stage) => stage.paid === 'per-run').reduce((sum, stage) => sum + stage.tokens.total, 0);
  const withCollection = executionTokens / Math.max(1, rmTokens + paidOnce);
  const rmAccuracies = seeds?.rm.accuracies ?? [grpo.rm.accuracy];
  const executionAccuracies = seeds?.execution.accuracies ?? [grpo.execution.accuracy];
  const gain = (accuracies: readonly number[]) => meanInterval(accuracies.map((accuracy) => accuracy - grpo.baseAccuracy));
  const [rmGain, executionGain] = [gain(rmAccuracies), gain(executionAccuracies)];
  const margin = meanInterval(rmAccuracies.map((accuracy, index) => accuracy - grpo.baseAccuracy - 0.9 * ((executionAccuracies[index] ?? 0) - grpo.baseAccuracy)));
  const over = rmAccuracies.length > 1 ? ` (mean of ${rmAccuracies.length} seeds, 95% CI ${pointsInterval([rmGain.ci.low, rmGain.ci.high])})` : ' (one seed)';
  const executionOver = rmAccuracies.length > 1 ? ` ${pointsInterval([executionGain.ci.low, executionGain.ci.high])}` : '';
  const measured =
    executionGain.mean <= 0
      ? `execution reward gained ${points(executionGain.mean)} points, so there is no gain to compare with (rm: ${points(rmGain.mean)}).`
      : `rm gained ${points(rmGain.mean)} points${over}, ${percent(rmGain.mean / executionGain.mean)} of execution’s ${points(executionGain.mean)}${executionOver}; rm minus 0.9 x execution: ${points(margin.mean)}${rmAccuracies.length > 1 ? ` ${pointsInterval([margin.ci.low, margin.ci.high])}` : ''}; execution spent ${tokenRatio.toFixed(1)}x rm’s training tokens (${withCollection.toFixed(2)}x once ${results.bill === undefined ? 'the tokens spent collecting the reward model’s training episodes are' : 'the reward model’s whole bill, stronger checkpoint and collection, is'} counted).`;
  const evalTasks = (results.config.sizes as { grpo?: { evalTasks?: number } } | undefined)?.grpo?.evalTasks;
  const tooFew =
    rmAccuracies.length < MIN_GRPO_SEEDS
      ? `${rmAccuracies.length} seed${rmAccuracies.length === 1 ? '' : 's'}; a GRPO verdict needs at least ${MIN_GRPO_SEEDS}`
      : evalTasks !== undefined
        ? tooFewToJudge({ tasks: evalTasks })?.replace(/^/, 'held-out evaluation on ')
        : undefined;
  return judged(hope, measured, executionGain.mean <= 0 ? null : margin.ci.low >= 0 && tokenRatio >= 10, tooFew);
}

/**
 * Issue 22's target for the whole bill: the reward-model route (stronger checkpoint, collection
 * and one GRPO run) spends at most one execution-reward GRPO run's training tokens, at 90% of its
 * accuracy gain or more (per seed, rm's gain minus 0.9 times execution's: interval at or above zero).
 * Judged with and without the stages listed apart.
 */
function billFindings(results: DemoResults): Finding[] {
  const { bill, grpo } = results;
  if (bill === undefined) return [];
  const rmAccuracies = grpo.seeds?.rm.accuracies ?? [grpo.rm.accuracy];
  const executionAccuracies = grpo.seeds?.execution.accuracies ?? [grpo.execution.accuracy];
  const margin = meanInterval(rmAccuracies.map((accuracy, index) => accuracy - grpo.baseAccuracy - 0.9 * ((executionAccuracies[index] ?? 0) - grpo.baseAccuracy)));
  const marginHeld = bill.execution.accuracyGain > 0 && margin.ci.low >= 0;
  const tooFew = rmAccuracies.length < MIN_GRPO_SEEDS ? `${rmAccuracies.length} GRPO seed${rmAccuracies.length === 1 ? '' : 's'}; a GRPO verdict needs at least ${MIN_GRPO_SEEDS}` : undefined;
  const executionRun = bill.execution.total.total;
  const gain = `rm’s GRPO gain ${points(bill.rewardModel.accuracyGain)} points, ${bill.gainShare === null ? 'execution gained nothing' : `${percent(bill.gainShare)} of execution’s ${points(bill.execution.accuracyGain)}`}; rm minus 0.9 x execution ${points(margin.mean)}${rmAccuracies.length > 1 ? ` ${pointsInterval([margin.ci.low, margin.ci.high])}` : ''}`;
  const runs = (count: number | null) => (count === null ? 'never (a run saves nothing)' : `after ${count} GRPO run${count === 1 ? '' : 's'}`);
  const apart = bill.rewardModel.stages.filter((stage) => stage.apart !== undefined).map((stage) => stage.stage);
  const findingsList = [
    judged(
      'The reward-model route’s whole bill (stronger checkpoint, collection and one GRPO run) is at most one execution-reward GRPO run’s training tokens, at 90% of its accuracy gain or more.',
      `${(bill.rewardModel.total.total / Math.max(1, executionRun)).toFixed(2)}x one execution run’s tokens (${formatTokens(bill.rewardModel.total.total)} vs ${formatTokens(executionRun)}); it pays for itself ${runs(bill.breakEvenRuns)}; ${gain}.`,
      bill.execution.accuracyGain <= 0 ? null : bill.rewardModel.total.total <= executionRun && marginHeld,
      tooFew,
    ),
  ];
  if (apart.length > 0) {
    findingsList.push(
      judged(
        `The same without the stages listed apart (${apart.join(', ')}).`,
        `${(bill.rewardModel.totalWithoutApart.total / Math.max(1, executionRun)).toFixed(2)}x one execution run’s tokens (${formatTokens(bill.rewardModel.totalWithoutApart.total)}); it pays for itself ${runs(bill.breakEvenRunsWithoutApart)}; ${gain}.`,
        bill.execution.accuracyGain <= 0 ? null : bill.rewardModel.totalWithoutApart.total <= executionRun && marginHeld,
        tooFew,
      ),
    );
  }
  return findingsList;
}
