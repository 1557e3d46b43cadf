import { findings, type DemoResults } from '../report/index.js';
import type { EncoderChoice } from '../rm/index.js';
import { formatFrontierLines, readingGainLine, sampleSwitchingLine } from '../select/index.js';
import { FULL_SIZES } from './demo-config.js';

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const signed = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}`;
const interval = (ci: readonly [number, number] | undefined) => (ci ? ` [${percent(ci[0])}, ${percent(ci[1])}]` : '');
const pointsInterval = (ci: readonly [number, number]) => `[${signed(ci[0])}, ${signed(ci[1])}]`;
const tokens = (value: number) => (value >= 1e6 ? `${(value / 1e6).toFixed(2)}M` : value >= 1e3 ? `${(value / 1e3).toFixed(1)}k` : value.toFixed(0));

/** Strategies printed from the Best-of-N table, in order; templates are summarised by the best-fixed rows. */
const PRINTED_STRATEGIES = ['single', 'first-valid', 'rm', 'rm+templates', 'rm-topk-vote', 'rm-adaptive', 'majority', 'judge', 'plan-judge', 'best-fixed', 'best-fixed-per-family', 'train-best-fixed-per-family', 'oracle'];

/** The terminal summary of a demo run: the numbers a reader needs, then where the rest is. */
export function formatDemoSummary(results: DemoResults, files: { results: string; report: string; model: string }): string {
  const lines: string[] = [];
  const tasksFrom = results.scenarioSeed === undefined ? '' : ` (tasks drawn by its seed ${results.scenarioSeed})`;
  lines.push(`orchrm demo: scenario ${results.scenario}${tasksFrom}, seed ${results.seed}, ${((results.durationMs ?? 0) / 1000).toFixed(0)} s`);
  pairLines(results, lines);
  modelLines(results, lines);
  curveLines(results, lines);
  bonLines(results, lines);
  switchingLines(results, lines);
  grpoLines(results, lines);
  lines.push('', 'What we hoped to see (stated before the run; held / DID NOT HOLD / too few to judge / not measured, each decided by its 95% interval)');
  for (const finding of findings(results)) {
    const mark = finding.verdict === 'did not hold' ? 'DID NOT HOLD' : finding.verdict;
    lines.push(`  [${mark}] ${finding.hope}`, `      ${finding.measured}`);
  }
  lines.push('', `results  ${files.results}`, `report   ${files.report}`, `model    ${files.model}  (orchrm serve --model ${files.model})`, '');
  return lines.join('\n');
}

function pairLines(results: DemoResults, lines: string[]): void {
  lines.push('', 'Pairs mined from the episodes, every source (outcome and efficiency pairs read grades; so does the reliability estimate)');
  for (const [source, entry] of Object.entries(results.pairs)) {
    const agreement = entry.agreementWithOutcome === null ? '' : `   agrees with outcome ${percent(entry.agreementWithOutcome)}`;
    lines.push(`  ${source.padEnd(12)} ${String(entry.count).padStart(7)}${agreement}`);
  }
  if (results.reliability !== undefined && results.reliability.length > 0) {
    lines.push(`  reliability (${results.reliability[0]?.method === 'none' ? 'off' : 'estimated'}) and pair weight: ${results.reliability.map(reliabilityEntry).join(', ')}`);
  }
  const { labelFree } = results;
  if (labelFree !== undefined) {
    const counts = Object.entries(labelFree.pairs).map(([source, count]) => `${source} ${count}`).join(', ');
    lines.push('', 'Pairs mined label-free (no grade read anywhere: checkpoint pairs unconditional, process pairs from artifacts only)');
    lines.push(`  train and validation pairs: ${counts}`);
    lines.push(`  reliability by agreement between sources, and pair weight: ${labelFree.reliability.map(reliabilityEntry).join(', ')}`);
  }
}

function modelLines(results: DemoResults, lines: string[]): void {
  const { rm } = results;
  const cell = (entry: { validVsValid: { accuracy: number; ci: [number, number] }; validVsInvalid: { accuracy: number } } | undefined) =>
    entry === undefined ? 'not measured' : `${percent(entry.validVsValid.accuracy)}${interval(entry.validVsValid.ci)}   ${percent(entry.validVsInvalid.accuracy)}`;
  const validPairs = rm.outcomePairs?.validVsValid.total ?? 0;
  lines.push('', `Reward models on ${rm.heldOut.tasks} held-out tasks: pairwise accuracy on ${validPairs.toLocaleString('en-US')} valid-vs-valid outcome pairs [95% CI], and on valid-vs-invalid ones`);
  lines.push(`  ${`${rm.model} (every source)`.padEnd(36)} ${cell(rm.outcomePairs)}`);
  const choice = results.config.encoderChoice as EncoderChoice | undefined;
  if (choice !== undefined) {
    const candidates = choice.candidates.map((candidate) => `${candidate.encoder}${candidate.validVsValidAccuracy === null ? '' : ` ${percent(candidate.validVsValidAccuracy)}`}`).join(', ');
    lines.push(`      encoder ${choice.chosen}, chosen by ${choice.by}${choice.validVsValidPairs > 0 ? ` (${choice.validVsValidPairs} pairs)` : ''} among: ${candidates}`);
  }
  for (const [kind, baseline] of Object.entries(rm.baselines)) {
    lines.push(`  ${`${kind} baseline`.padEnd(36)} ${cell(baseline.outcomePairs)}`, `      ${baseline.verdict}`);
  }
  for (const [label, entry] of [
    ['outcome pairs only', results.outcomeOnly],
    ['label-free pairs only', results.labelFree],
  ] as const) {
    if (entry === undefined) continue;
    lines.push(`  ${`${entry.model} (${label})`.padEnd(36)} ${cell(entry.outcomePairs)}`, `      ${entry.model} minus ${entry.comparedWith}: ${signed(entry.difference.diff)} points ${pointsInterval(entry.difference.ci)}`);
  }
}

/** The learning curve: each share's tokens and held-out accuracies, and where it flattens. */
export function curveLines(results: DemoResults, lines: string[]): void {
  const curve = results.learningCurve;
  if (curve === undefined || curve.points.length === 0) return;
  lines.push('', `Learning curve: the reward model trained on shares of the collection's training tasks, each judged on the same ${curve.heldOut.tasks} held-out tasks (collection tokens leave out ${curve.notInPoints})`);
  for (const point of curve.points) {
    lines.push(`  ${point.collection.padEnd(8)} ${`${(point.share * 100).toFixed(1)}%`.padStart(6)} ${String(point.tasks).padStart(5)} tasks ${tokens(point.collectionTokens).padStart(8)} tokens   valid-vs-valid ${percent(point.validVsValid.accuracy)}${interval(point.validVsValid.ci)}   Best-of-${curve.n} ${percent(point.bestOfN.accuracy)}${interval(point.bestOfN.ci)}`);
  }
  const flat = curveFlattensAt(curve.points);
  if (flat !== undefined) lines.push(`  flattens at ${(flat.share * 100).toFixed(1)}% (${flat.tasks} tasks, ${tokens(flat.collectionTokens)} tokens): its valid-vs-valid and Best-of-${curve.n} intervals reach the whole collection's accuracies less 1 point`);
  const collected = (results.config.sizes as { collect?: { tasks?: number } } | undefined)?.collect?.tasks;
  if (results.config.quick !== true && collected === FULL_SIZES.collect.tasks) {
    lines.push(`  the default collection, ${collected} train tasks, is past where the curve of a 2,400-task collection flattens (270 train tasks, judged on its 248 held-out tasks; docs/rm.md, "Learning curves")`);
  }
}

/** The first point whose valid-vs-valid and Best-of-N intervals reach the largest share's accuracies less 1 point (`curveFlattensAt` of src/rm on results.json's points). */
export function curveFlattensAt(points: NonNullable<DemoResults['learningCurve']>['points']) {
  const sorted = [...points].sort((a, b) => a.share - b.share);
  const full = sorted.at(-1);
  return full === undefined ? undefined : sorted.find((point) => point.validVsValid.ci[1] >= full.validVsValid.accuracy - 0.01 && point.bestOfN.ci[1] >= full.bestOfN.accuracy - 0.01);
}

function bonLines(results: DemoResults, lines: string[]): void {
  const { bon } = results;
  const templates = Array.isArray(results.config.templates) ? results.config.templates.length : 0;
  lines.push('', `Best-of-N at N = ${bon.n} on ${bon.tasks} test tasks${templates > 0 ? `, with ${templates} template plans in the pool of rm+templates` : ''} (tokens per task: orchestrator / execution / verification)`);
  const strategyRows = PRINTED_STRATEGIES.flatMap((name) => {
    const strategy = bon.strategies[name];
    if (!strategy) return [];
    const perSuite = name === 'best-fixed-per-family' ? bon.bestFixed?.perSuite : name === 'train-best-fixed-per-family' ? bon.bestFixed?.perSuiteFromTraining : undefined;
    const which = name === 'best-fixed' ? bon.bestFixed?.overall : perSuite && Object.values(perSuite).join(', ');
    return [{ label: name + (which ? ` (${which})` : ''), strategy }];
  });
  const differences = ['rm-vs-single', 'rm-vs-first-valid', 'rm+templates-vs-best-fixed-per-family', 'rm+templates-vs-train-best-fixed-per-family', 'best-fixed-per-family-vs-train-best-fixed-per-family', 'rm-vs-majority'].flatMap((key) => {
    const difference = bon.paired[key];
    return difference ? [{ label: key.replace(/-vs-/, ' minus '), difference }] : [];
  });
  const width = Math.max(38, ...strategyRows.map((row) => row.label.length), ...differences.map((row) => row.label.length));
  for (const { label, strategy } of strategyRows) {
    const split = `${tokens(strategy.tokens.orchestrator)} / ${tokens(strategy.tokens.execution)} / ${tokens(strategy.tokens.verification)}`;
    lines.push(`  ${label.padEnd(width)} ${percent(strategy.accuracy).padStart(6)}${interval(strategy.ci).padEnd(18)} ${split.padStart(24)}   ${strategy.executionsPerTask.toFixed(2)} executions`);
  }
  for (const { label, difference } of differences) lines.push(`  ${label.padEnd(width)} ${signed(difference.diff)} points ${pointsInterval(difference.ci)}`);
  const { single, rm, oracle } = bon.strategies;
  if (single && rm && oracle && oracle.accuracy > single.accuracy) lines.push(`  rm closes ${percent((rm.accuracy - single.accuracy) / (oracle.accuracy - single.accuracy))} of the single -> oracle gap`);
  const rows = results.families.filter((row) => row.paired !== undefined);
  if (rows.length > 0) {
    lines.push('', 'Per family, paired on the family\'s test tasks (points [95% CI])');
    for (const row of rows) {
      const at = (name: string) => row.accuracy[`bon:${name}`]?.accuracy;
      const gain = row.paired!['rm-vs-single'];
      const pool = row.paired!['rm+templates-vs-best-fixed'];
      const parts = [`single ${percent(at('single') ?? 0)}`, `rm ${percent(at('rm') ?? 0)}${gain ? ` (${signed(gain.diff)} ${pointsInterval(gain.ci)})` : ''}`];
      if (at('rm+templates') !== undefined) parts.push(`rm+templates ${percent(at('rm+templates')!)} vs best fixed ${row.bestFixed ?? ''} ${percent(at('best-fixed') ?? 0)}${pool ? ` (${signed(pool.diff)} ${pointsInterval(pool.ci)})` : ''}`);
      lines.push(`  ${row.family.padEnd(10)} ${String(row.tasks).padStart(4)} tasks: ${parts.join(', ')}`);
    }
  }
  frontierLines(results, lines);
  const labelFreeBon = results.labelFree?.bon;
  if (labelFreeBon) {
    const lf = labelFreeBon.strategies;
    const against = (key: string, label: string) => {
      const difference = labelFreeBon.paired[key];
      return difference ? `, ${signed(difference.diff)} ${pointsInterval(difference.ci)} over ${label}` : '';
    };
    lines.push(
      '',
      `The label-free reward model in Best-of-N (same plans): rm ${percent(lf.rm?.accuracy ?? 0)}${against('rm-vs-single', 'single')}${against('rm-vs-first-valid', 'first-valid')}; rm+templates ${percent(lf['rm+templates']?.accuracy ?? 0)}${against('rm+templates-vs-best-fixed-per-family', 'best-fixed-per-family')}`,
    );
  }
}

/**
 * Per family, how often the rm strategies' picks switch kind away from the family's best fixed
 * template, and on those tasks how often the switch won (right where that template, executed on
 * the same task, was wrong) or lost.
 */
export function switchingLines(results: DemoResults, lines: string[]): void {
  const rows = results.families.flatMap((family) => (family.switching ?? []).map((row) => ({ family: family.family, ...row })));
  if (rows.length === 0) return;
  lines.push('', `Switching: on how many of a family's tasks each strategy picked another kind of plan than the family's best fixed template, and whether that won or lost against the template on the same task (N = ${results.bon.n})`);
  for (const row of rows) {
    const top = Object.entries(row.kinds)
      .slice(0, 3)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', ');
    const share = row.tasks === 0 ? 0 : row.switched / row.tasks;
    lines.push(
      `  ${row.family.padEnd(10)} ${row.strategy.padEnd(18)} vs ${row.bestFixed.padEnd(14)} switched on ${String(row.switched).padStart(3)} of ${row.tasks} (${percent(share)}): ${row.wins} won, ${row.losses} lost${top === '' ? '' : `; picked instead: ${top}`}`,
    );
  }
  const router = results.bon.templateRouter;
  if (router !== undefined) {
    lines.push(
      `  template choice of rm+templates and rm-templates-only: the reward model's template router (each template's success over the task's suite, word-problem structure and name popularity, L2 ${router.l2} chosen by log loss on ${router.validationEpisodes.toLocaleString('en-US')} validation episodes after fitting on ${router.trainEpisodes.toLocaleString('en-US')} train ones, then fitted on both); no reference template`,
    );
    if (router.sampleSwitching !== undefined) lines.push(sampleSwitchingLine(router.sampleSwitching));
  }
  const references = Object.entries(results.bon.templateReferences ?? {});
  if (references.length > 0) {
    lines.push(
      `  reference template of rm+templates and rm-templates-only (the model's most frequent first choice per family; another template replaces it only when better by more than one sd of its heads): ${references.map(([family, name]) => `${family} ${name}`).join(', ')}`,
    );
  }
}

/** GRPO from base: each reward's mean held-out accuracy over seeds with its interval (or the one run), and the token bill. */
export function grpoLines(results: DemoResults, lines: string[]): void {
  const { grpo } = results;
  const { seeds } = grpo;
  lines.push('', `GRPO from base (held-out accuracy ${percent(grpo.baseAccuracy)} before training)${seeds ? `, mean of ${seeds.seeds.length} seeds (${seeds.seeds.join(', ')}) [95% CI]` : ''}`);
  for (const [label, run, over] of [
    ['rm reward', grpo.rm, seeds?.rm],
    ['execution', grpo.execution, seeds?.execution],
  ] as const) {
    const accuracy = over ? `${percent(over.mean)}${interval(over.ci)} (seeds: ${over.accuracies.map(percent).join(', ')})` : percent(run.accuracy);
    const spent = over?.trainingTokens ?? run.trainingTokens;
    lines.push(`  ${label.padEnd(10)} accuracy ${accuracy}   training tokens ${tokens(spent.total)}${over ? ' per run' : ''} (execution ${tokens(spent.execution)}, verification ${tokens(spent.verification)})`);
  }
  const { rewardModel } = grpo;
  if (rewardModel !== undefined) {
    lines.push(`  rm reward is the score of a reward model trained on ${percent(rewardModel.share)} of the collection's training tasks (${rewardModel.tasks} tasks, ${rewardModel.pairs} pairs, ${tokens(grpo.rmCollectionTokens.total)} collection tokens); Best-of-N's model read the whole collection`);
  }
  const collection = results.config.templateCollection as { tasks: number; episodes: number; tokens: { total: number } } | undefined;
  const wholeCollection = rewardModel?.wholeCollectionTokens ?? grpo.rmCollectionTokens;
  const templateShare = collection && wholeCollection.total > 0 ? `; the templates, run on ${collection.tasks} tasks (${collection.episodes} episodes), took ${percent(collection.tokens.total / wholeCollection.total)} of it` : '';
  if (results.bill === undefined) {
    lines.push(`  collecting the reward model's episodes cost ${tokens(grpo.rmCollectionTokens.total)} tokens (its own line, not in the rm total above)${templateShare}`);
    return;
  }
  lines.push(`  (GRPO training tokens only; the reward model's collection and stronger checkpoint are in the whole bill below)`);
  if (templateShare !== '') lines.push(`  collecting the ${rewardModel === undefined ? "reward model's" : 'whole collection\'s'} episodes cost ${tokens(wholeCollection.total)} tokens${templateShare}`);
  billLines(results.bill, lines);
}

/** The whole bill of both routes, stage by stage, with the break-even and what it leaves out. */
export function billLines(bill: NonNullable<DemoResults['bill']>, lines: string[]): void {
  lines.push('', 'The whole bill: every token each route spends to train the orchestrator once (tokens by stage, from its own count)');
  for (const [label, route] of [
    ['reward model', bill.rewardModel],
    ['execution', bill.execution],
  ] as const) {
    for (const stage of route.stages) {
      lines.push(`  ${label.padEnd(13)} ${`${stage.stage}${stage.apart === undefined ? '' : ' (apart)'}`.padEnd(26)} ${tokens(stage.tokens.total).padStart(9)}  ${stage.paid === 'once' ? 'once' : 'per GRPO run'}`);
    }
    lines.push(`  ${label.padEnd(13)} ${'whole bill'.padEnd(26)} ${tokens(route.total.total).padStart(9)}${route.totalWithoutApart.total === route.total.total ? '' : `  (${tokens(route.totalWithoutApart.total)} without the stages listed apart)`}`);
  }
  const runs = (count: number | null) => (count === null ? 'never (a run saves nothing)' : `after ${count} GRPO run${count === 1 ? '' : 's'}`);
  const apart = bill.rewardModel.stages.filter((stage) => stage.apart !== undefined);
  lines.push(
    `  one GRPO run saves ${tokens(bill.savingPerRun)} tokens on the reward-model route, which pays for itself ${runs(bill.breakEvenRuns)}${apart.length > 0 ? ` (${runs(bill.breakEvenRunsWithoutApart)} without ${apart.map((stage) => stage.stage).join(', ')})` : ''}`,
  );
  for (const stage of apart) lines.push(`  ${stage.stage} is listed apart: ${stage.apart}`);
  lines.push(`  left out of both: ${bill.leavesOut.join('; ')}`);
}

/** The cost head, the calibration and the cost-accuracy frontiers of rm+templates and of the template router alone (issue 22), when the run measured them. */
function frontierLines(results: DemoResults, lines: string[]): void {
  const { costModel } = results;
  const { frontier } = results.bon;
  if (costModel !== undefined) {
    const { calibration, cost } = costModel;
    lines.push(
      '',
      `Cost head: mean absolute error ${tokens(cost.meanAbsoluteError)} execution tokens on plans averaging ${tokens(cost.meanTokens)} (validation split). Success probability (Platt): ECE ${calibration.train.ece.toFixed(3)} on the train split it was fitted on${calibration.validation ? `, ${calibration.validation.ece.toFixed(3)} on validation` : ''}, ${calibration.test.ece.toFixed(3)} on ${calibration.test.examples} held-out plans`,
    );
  }
  if (frontier !== undefined) lines.push('', ...formatFrontierLines(frontier, `Cost-aware rm+templates at N = ${frontier.n} (accuracy, execution + verification tokens per task; vs best-fixed-per-family in points)`));
  const router = results.bon.templateRouter;
  const readingGain = router?.readingGain === undefined ? undefined : readingGainLine(router.readingGain, router.sampleSwitching);
  if (frontier !== undefined && readingGain !== undefined) lines.push(readingGain);
  const { routerFrontier } = results.bon;
  if (routerFrontier !== undefined) {
    lines.push(
      '',
      ...formatFrontierLines(
        routerFrontier,
        "Cost-aware template choice by the template router alone (rm-templates-only: the router's success probability against the execution tokens it expects each template to spend on the task; it reads the task, no plan)",
      ),
    );
  }
}

/** One unit's reliability and weight, saying where the reliability came from when it was not estimated. */
function reliabilityEntry(entry: NonNullable<DemoResults['reliability']>[number]): string {
  // Under calibration the grades are the truth the other units are measured against (docs/pairs.md).
  const origin = entry.method === 'fixed' ? ' (set)' : entry.method === 'prior' ? ' (prior)' : entry.unit === 'outcome' && entry.method === 'calibration' ? ' (grades)' : '';
  return `${entry.unit} ${entry.reliability.toFixed(2)}${origin} ${entry.weight === 0 ? 'dropped' : `x${entry.weight.toFixed(2)}`}`;
}
