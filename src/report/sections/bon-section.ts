import { bonChart, bonTables, orderStrategies } from '../charts/bon-chart.js';
import { frontierChart } from '../charts/frontier-chart.js';
import { decimal, percent, percentInterval, points, pointsInterval, tokens } from '../format-values.js';
import { htmlTable, type TableCell } from '../html-table.js';
import { renderChartFigure } from '../render-chart.js';
import type { BonFrontierResult, BonTableResult, DemoResults } from '../results-schema.js';
import { describeTaskBlindMix } from '../../select/index.js';
import { paragraph, section } from './section.js';

/** Best-of-N: the accuracy-vs-tokens chart, the table at the headline N, paired differences, and every N. */
export async function bonSection(bon: DemoResults['bon']): Promise<string> {
  const otherNs = bonTables(bon).filter((table) => table.n !== bon.n);
  return section('bon', `Best-of-N plan selection (N = ${bon.n})`, [
    paragraph(
      `For each of ${bon.tasks} test tasks the orchestrator samples N plans; each strategy chooses among the same plans, so strategies are compared task by task. rm scores the plans with the reward model and executes only the best; majority and judge execute all N; oracle counts a task as solved if any plan is correct (an upper bound, not a method).`,
    ),
    await renderChartFigure(bonChart(bon)),
    strategyTable(bon, `Strategies at N = ${bon.n}: accuracy on ${bon.tasks} test tasks and mean tokens per task by role`),
    pairedTable(bon),
    fixedBaselinesParagraph(bon),
    bon.frontier === undefined ? '' : await frontierPart(bon.frontier, bon.routerFrontier),
    otherNs.length === 0
      ? ''
      : `<details><summary>Tables at N = ${otherNs.map((table) => table.n).join(', ')}</summary>\n${otherNs.map((table) => strategyTable(table, `Strategies at N = ${table.n} (${table.tasks} tasks)`)).join('\n')}\n</details>`,
  ]);
}

function strategyTable(table: BonTableResult, caption: string): string {
  const rows = orderStrategies(Object.keys(table.strategies)).map((name): TableCell[] => {
    const summary = table.strategies[name]!;
    return [
      name,
      { text: percent(summary.accuracy), className: 'strong' },
      percentInterval(summary.ci),
      tokens(summary.tokens.orchestrator),
      tokens(summary.tokens.execution),
      tokens(summary.tokens.verification),
      { text: tokens(summary.tokens.total), className: 'strong' },
      decimal(summary.executionsPerTask),
    ];
  });
  return htmlTable({ caption, columns: ['Strategy', 'Accuracy', '95% CI', 'Orchestrator', 'Execution', 'Verification', 'Total tokens', 'Executions'], rows });
}

/**
 * What the two fixed-plan-per-family baselines are, when the run has both: one chosen after the
 * fact on the test tasks, one on the model's training data, and what choosing after the fact gains.
 */
function fixedBaselinesParagraph(bon: DemoResults['bon']): string {
  const fromTraining = bon.bestFixed?.perSuiteFromTraining;
  const gain = bon.paired['best-fixed-per-family-vs-train-best-fixed-per-family'];
  const router = bon.paired['rm+templates-vs-train-best-fixed-per-family'];
  if (bon.bestFixed === undefined || fromTraining === undefined || gain === undefined || router === undefined) return '';
  const names = (perSuite: Record<string, string>) => Object.entries(perSuite).map(([suite, template]) => `${suite}: ${template}`).join(', ');
  return paragraph(
    `best-fixed-per-family runs on each family the template that did best on these test tasks (${names(bon.bestFixed.perSuite)}), chosen after the fact; train-best-fixed-per-family runs the one that did best in the graded template episodes the reward model was trained on (${names(fromTraining)}), the fixed plan a user could choose before seeing a test grade. Choosing after the fact gains ${points(gain.diff)} points (95% CI ${pointsInterval(gain.ci)}) here; rm+templates minus train-best-fixed-per-family is ${points(router.diff)} points (${pointsInterval(router.ci)}). The targets are stated against best-fixed-per-family.`,
  );
}

function pairedTable(bon: DemoResults['bon']): string {
  const rows = Object.entries(bon.paired).map(([comparison, difference]): TableCell[] => {
    const significant = difference.ci[0] > 0 || difference.ci[1] < 0;
    return [
      comparison.replace('-vs-', ' vs '),
      { text: points(difference.diff), className: 'strong' },
      pointsInterval(difference.ci),
      significant ? { text: difference.diff > 0 ? 'better' : 'worse', className: difference.diff > 0 ? 'good' : 'bad' } : { text: 'no clear difference', className: 'muted' },
    ];
  });
  if (rows.length === 0) return '';
  return htmlTable({
    caption: `Paired differences at N = ${bon.n}, in accuracy points (same tasks; 95% paired-bootstrap interval over tasks)`,
    columns: ['Comparison', 'Difference', '95% CI', 'Reading'],
    rows,
    numericColumns: [1, 2],
  });
}

/** The cost-accuracy frontier of cost-aware rm+templates (issue 22), and of the template router alone where measured: what each found, the chart and the tables. */
async function frontierPart(frontier: BonFrontierResult, routerFrontier: BonFrontierResult | undefined): Promise<string> {
  return [
    `<h3>Cost-aware selection: the cost-accuracy frontier</h3>`,
    paragraph(
      `rm+templates run again at N = ${frontier.n} under objectives that weigh the reward model's predicted execution tokens (its cost head) against its calibrated success probability: a price per predicted token, or the cheapest plan within a margin of the best expected accuracy. ${frontierVerdicts(frontier)}`,
    ),
    routerFrontier === undefined
      ? ''
      : paragraph(
          `rm-templates-only run under the same objectives with the template router alone: the router's success probability for each template against the execution tokens the router expects it to spend on the task (a fit over the task's routing and size facts) (it reads the task once and no plan, so its verification is the task's tokens). ${frontierVerdicts(routerFrontier)}`,
        ),
    await renderChartFigure(frontierChart(frontier, routerFrontier)),
    frontierTable(frontier, 'cost-aware rm+templates'),
    routerFrontier === undefined ? '' : frontierTable(routerFrontier, 'cost-aware rm-templates-only (the template router alone)'),
  ].join('\n');
}

/** Whether and where a frontier matches best-fixed-per-family, what one fixed plan alone gives, and its dominated points. */
function frontierVerdicts(frontier: BonFrontierResult): string {
  const perFamilyTokens = frontier.bestFixedPerFamily.tokens.executionPlusVerification;
  const matched =
    frontier.tokensAtBestFixedAccuracy === null
      ? `No operating point matches best-fixed-per-family's accuracy (${percent(frontier.bestFixedPerFamily.accuracy)}): every paired interval lies below 0.`
      : `The cheapest operating point that matches best-fixed-per-family's accuracy (paired interval reaching 0) is ${frontier.pointAtBestFixedAccuracy}, at ${tokens(frontier.tokensAtBestFixedAccuracy)} execution + verification tokens per task: ${percent(frontier.shareOfBestFixedPerFamilyTokens ?? 0)} of best-fixed-per-family's ${tokens(perFamilyTokens)} (target: at most 50%).`;
  const cheapestFixed = frontier.cheapestFixedAtBestFixedAccuracy;
  const fixedAlone = cheapestFixed === null ? 'No fixed plan alone matches it.' : `The cheapest fixed plan that matches it by the same rule is ${cheapestFixed.name}, at ${tokens(cheapestFixed.executionPlusVerification)}.`;
  const perFamilyFixed = frontier.cheapestFixedPerFamilyAtBestFixedAccuracy;
  const fixedPerFamily = perFamilyFixed === undefined ? '' : ` The cheapest fixed plan per family as accurate on every family is ${Object.entries(perFamilyFixed.perSuite).map(([suite, name]) => `${name} for ${suite}`).join(', ')}, at ${tokens(perFamilyFixed.executionPlusVerification)}.`;
  const mix = frontier.taskBlindMixAtBestFixedAccuracy;
  const taskBlind =
    mix === undefined || mix === null
      ? ''
      : ` At that point's tokens the best task-blind mix of fixed plans per family (${describeTaskBlindMix(mix.perSuite)}, chosen on the same tasks; it reads no task) reaches ${percent(mix.accuracy)}: the point minus the mix is ${points(mix.pointMinusMix.diff)} points ${pointsInterval(mix.pointMinusMix.ci)}: what reading the task adds at those tokens.`;
  const dominated = frontier.points.filter((point) => point.dominatedBy.length > 0);
  const dominance =
    dominated.length === 0
      ? 'No fixed plan is both cheaper and more accurate than any operating point.'
      : `${dominated.length} of ${frontier.points.length} operating points have a fixed plan both cheaper and more accurate (${dominated.map((point) => `${point.label}: ${point.dominatedBy.join(', ')}`).join('; ')}).`;
  return `${matched} ${fixedAlone}${fixedPerFamily}${taskBlind} ${dominance}`;
}

function frontierTable(frontier: BonFrontierResult, what: string): string {
  const rows = frontier.points.map((point): TableCell[] => [
    point.label,
    { text: percent(point.accuracy), className: 'strong' },
    percentInterval(point.ci),
    tokens(point.tokens.executionPlusVerification),
    points(point.versusBestFixedPerFamily.diff),
    pointsInterval(point.versusBestFixedPerFamily.ci),
    point.dominatedBy.length === 0 ? { text: 'none', className: 'muted' } : { text: point.dominatedBy.join(', '), className: 'bad' },
  ]);
  return htmlTable({
    caption: `Operating points of ${what} on ${frontier.tasks} test tasks: accuracy, mean execution + verification tokens per task, and the paired difference against best-fixed-per-family (points)`,
    columns: ['Objective', 'Accuracy', '95% CI', 'Exec + verif tokens', 'vs best-fixed-per-family', '95% CI', 'Fixed plans cheaper and more accurate'],
    rows,
    numericColumns: [1, 2, 3, 4, 5],
  });
}
