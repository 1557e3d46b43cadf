import type { BaselineReport } from './evaluate-against-baselines.js';
import type { ModelEvaluation } from './evaluate-model.js';
import type { Interval } from './wilson-interval.js';

const LABEL_WIDTH = 30;
const COLUMN_WIDTH = 22;

/**
 * The human-readable table of `orchrm rm eval`: one column per model under test and per
 * baseline; pairwise accuracy overall and per source with 95% CIs; accuracy on the held-out
 * outcome pairs, valid-vs-valid and valid-vs-invalid apart; calibration, Best-of-N with CIs,
 * AUCs and prefix AUCs; then the random and oracle Best-of-N references and, per model,
 * the plain verdict against each baseline.
 *
 * @example
 * process.stdout.write(formatBaselineReport(report));
 */
export function formatBaselineReport(report: BaselineReport, options: { title?: string } = {}): string {
  const columns: { label: string; evaluation: ModelEvaluation }[] = [
    ...report.models.map(({ evaluation }) => ({ label: evaluation.model, evaluation })),
    ...report.baselines.map(({ kind, evaluation }) => ({ label: `${kind} baseline`, evaluation })),
  ];
  const { pairs, episodes, tasks } = report.data;
  const lines: string[] = [];
  if (options.title) lines.push(options.title);
  lines.push(`held-out (test-split tasks only): ${pairs} pairs, ${episodes} graded episodes, ${tasks} tasks`, '');
  const row = (label: string, cell: (evaluation: ModelEvaluation) => string) =>
    lines.push(`${fit(label, LABEL_WIDTH).padEnd(LABEL_WIDTH)}${columns.map((column) => fit(cell(column.evaluation), COLUMN_WIDTH - 1).padStart(COLUMN_WIDTH)).join('')}`);
  lines.push(`${''.padEnd(LABEL_WIDTH)}${columns.map((column) => fit(column.label, COLUMN_WIDTH - 1).padStart(COLUMN_WIDTH)).join('')}`);

  const first = columns[0]?.evaluation;
  if (first === undefined) return `${lines.join('\n')}\n`;
  row(`pairwise accuracy (n=${first.pairs.count})`, (evaluation) => withCi(evaluation.pairs.accuracy.overall.accuracy, evaluation.pairs.accuracy.overall.ci));
  for (const [source, estimate] of Object.entries(first.pairs.accuracy.perSource)) {
    row(`  ${source} (n=${estimate.total})`, (evaluation) => {
      const own = evaluation.pairs.accuracy.perSource[source];
      return own === undefined ? '-' : withCi(own.accuracy, own.ci);
    });
  }
  row('  tied pairs', (evaluation) => String(evaluation.pairs.accuracy.overall.ties));
  const outcome = first.episodes.outcomePairs;
  lines.push('held-out outcome pairs');
  row(`  valid vs valid (n=${outcome.validVsValid.total})`, (evaluation) => (outcome.validVsValid.total === 0 ? '-' : withCi(evaluation.episodes.outcomePairs.validVsValid.accuracy, evaluation.episodes.outcomePairs.validVsValid.ci)));
  row(`  valid vs invalid (n=${outcome.validVsInvalid.total})`, (evaluation) => (outcome.validVsInvalid.total === 0 ? '-' : withCi(evaluation.episodes.outcomePairs.validVsInvalid.accuracy, evaluation.episodes.outcomePairs.validVsInvalid.ci)));
  row('  AUC within task, valid', (evaluation) => auc(evaluation.episodes.outcomePairs.validWithinTaskAuc));
  row('calibration error (ECE)', (evaluation) => evaluation.pairs.count === 0 ? '-' : evaluation.pairs.calibration.ece.toFixed(3));
  for (const result of first.episodes.bestOfN) {
    row(result.tasks === 0 ? `Best-of-${result.n} (too few plans)` : `Best-of-${result.n} (${result.tasks} tasks)`, (evaluation) => {
      const own = evaluation.episodes.bestOfN.find((other) => other.n === result.n);
      return own === undefined || own.tasks === 0 ? '-' : withCi(own.accuracy, own.ci);
    });
  }
  row('AUC, pooled', (evaluation) => auc(evaluation.episodes.auc));
  row('AUC, within task', (evaluation) => auc(evaluation.episodes.withinTaskAuc));
  const prefixLengths = [...new Set(columns.flatMap((column) => column.evaluation.prefix?.map((prefix) => prefix.k) ?? []))];
  for (const k of prefixLengths) {
    row(`prefix k=${k} AUC, within task`, (evaluation) => auc(evaluation.prefix?.find((prefix) => prefix.k === k)?.withinTaskAuc));
  }

  if (first.episodes.bestOfN.some((result) => result.tasks > 0)) {
    const references = first.episodes.bestOfN
      .filter((result) => result.tasks > 0)
      .map((result) => `N=${result.n}: random ${percent(result.randomAccuracy)}, oracle ${percent(result.oracleAccuracy)}`);
    lines.push('', `Best-of-N references (any model): ${references.join('; ')}`);
  }
  for (const { evaluation, comparisons } of report.models) {
    if (comparisons.length === 0) continue;
    lines.push('', `${evaluation.model}:`);
    for (const comparison of comparisons) lines.push(`  - ${comparison.verdict}`);
  }
  return `${lines.join('\n')}\n`;
}

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}

function withCi(fraction: number, ci: Interval): string {
  return `${percent(fraction)} [${(ci.low * 100).toFixed(1)}, ${(ci.high * 100).toFixed(1)}]`;
}

function auc(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : value.toFixed(3);
}

function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}~` : text;
}
