import { outcomeOrder, type BonTable } from './summarize-best-of-n.js';

const percent = (value: number) => `${(value * 100).toFixed(1)}`;
const signed = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}`;
const tokens = (value: number) => Math.round(value).toString();

/**
 * The text table `orchrm bon` prints for one N: accuracy (percent) with its 95% Wilson interval,
 * mean tokens per task by role, executions per task, then the paired differences (points) and
 * the share of the single-to-oracle gap that `rm` closes.
 */
export function formatBonTable(table: BonTable): string {
  const header = ['strategy', 'acc%', '95% CI', 'orchestrator', 'execution', 'verification', 'total', 'exec/task'];
  const rows: string[][] = [];
  for (const name of outcomeOrder(Object.keys(table.strategies) as (keyof BonTable['strategies'])[])) {
    const summary = table.strategies[name];
    if (summary === undefined) continue;
    const perSuite = name === 'best-fixed-per-family' ? table.bestFixed?.perSuite : name === 'train-best-fixed-per-family' ? table.bestFixed?.perSuiteFromTraining : undefined;
    const which = name === 'best-fixed' ? table.bestFixed?.overall : perSuite && Object.entries(perSuite).map(([suite, template]) => `${suite}: ${template}`).join(', ');
    rows.push([
      name + (which ? ` (${which})` : '') + (summary.judgeFailures !== undefined ? ` (${summary.judgeFailures} unreadable)` : ''),
      percent(summary.accuracy),
      `[${percent(summary.ci[0])}, ${percent(summary.ci[1])}]`,
      tokens(summary.tokens.orchestrator),
      tokens(summary.tokens.execution),
      tokens(summary.tokens.verification),
      tokens(summary.tokens.total),
      summary.executionsPerTask.toFixed(2),
    ]);
  }
  const lines = [`N = ${table.n}, ${table.tasks} tasks (tokens: mean per task)`, ...alignColumns([header, ...rows])];
  const paired = Object.entries(table.paired);
  if (paired.length > 0) {
    lines.push('', 'paired differences (points, 95% paired bootstrap over tasks)');
    lines.push(...alignColumns(paired.map(([name, difference]) => [name, signed(difference.diff), `[${signed(difference.ci[0])}, ${signed(difference.ci[1])}]`])));
  }
  const { single, rm, oracle } = table.strategies;
  if (single !== undefined && rm !== undefined && oracle !== undefined && oracle.accuracy > single.accuracy) {
    const closed = (rm.accuracy - single.accuracy) / (oracle.accuracy - single.accuracy);
    lines.push('', `rm closes ${(closed * 100).toFixed(0)}% of the single -> oracle gap`);
  }
  return `${lines.join('\n')}\n`;
}

/** Pads every column to its widest cell; numbers right-aligned, the first column left. */
function alignColumns(rows: readonly string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, column) => (widths[column] = Math.max(widths[column] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ').trimEnd());
}
