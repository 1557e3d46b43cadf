import { bonChart, bonTables, orderStrategies } from '../charts/bon-chart.js';
import { decimal, percent, percentInterval, points, pointsInterval, tokens } from '../format-values.js';
import { htmlTable, type TableCell } from '../html-table.js';
import { renderChartFigure } from '../render-chart.js';
import type { BonTableResult, DemoResults } from '../results-schema.js';
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
