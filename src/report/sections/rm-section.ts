import { rmCalibrationChart, rmSourceChart } from '../charts/rm-charts.js';
import { escapeHtml } from '../escape-html.js';
import { decimal, percent, percentInterval } from '../format-values.js';
import { htmlTable, type TableCell } from '../html-table.js';
import { renderChartFigure } from '../render-chart.js';
import type { DemoResults } from '../results-schema.js';
import { paragraph, section } from './section.js';

type Metrics = Pick<DemoResults['rm'], 'pairAccuracy' | 'calibration' | 'auc' | 'withinTaskAuc' | 'bon' | 'outcomePairs'>;

/** The reward model next to its baselines: per-source accuracy, calibration, AUC, Best-of-N, verdicts. */
export async function rmSection(rm: DemoResults['rm']): Promise<string> {
  const contenders: [string, Metrics][] = [[rm.model, rm], ...Object.entries(rm.baselines)];
  const sources = Object.keys(rm.pairAccuracy.perSource);
  const accuracyCell = (metrics: Metrics, source: string): TableCell => {
    const estimate = source === 'overall' ? metrics.pairAccuracy.overall : metrics.pairAccuracy.perSource[source];
    return estimate === undefined ? '' : { text: `${percent(estimate.accuracy)} (${percentInterval(estimate.ci)})`, title: `${estimate.correct} of ${estimate.total} pairs` };
  };
  const sourceRows = ['overall', ...sources].map((source): TableCell[] => [
    source,
    String((source === 'overall' ? rm.pairAccuracy.overall : rm.pairAccuracy.perSource[source])?.total ?? 0),
    ...contenders.map(([, metrics]) => accuracyCell(metrics, source)),
  ]);
  const ns = [...new Set(contenders.flatMap(([, metrics]) => metrics.bon.map((result) => result.n)))].sort((a, b) => a - b);
  const metricRows = contenders.map(([name, metrics]): TableCell[] => [
    name,
    percent(metrics.pairAccuracy.overall.accuracy),
    metrics.auc === null ? '–' : decimal(metrics.auc, 3),
    metrics.withinTaskAuc === null || metrics.withinTaskAuc === undefined ? '–' : decimal(metrics.withinTaskAuc, 3),
    decimal(metrics.calibration.ece, 3),
    ...ns.map((n) => {
      const result = metrics.bon.find((entry) => entry.n === n);
      return result === undefined ? '–' : { text: percent(result.accuracy), title: `random pick ${percent(result.randomAccuracy)}, oracle ${percent(result.oracleAccuracy)}` };
    }),
  ]);
  const verdicts = Object.values(rm.baselines).map(
    (baseline) => `<li class="${baseline.beats ? 'good' : 'bad'}">The ${escapeHtml(rm.model)} model ${escapeHtml(baseline.verdict)}.</li>`,
  );
  return section('rm', 'Reward model', [
    paragraph(
      `A Bradley-Terry reward model (${rm.model}) reads the task and the canonical plan, before anything runs. Evaluated on ${rm.heldOut.pairs.toLocaleString('en-US')} pairs and ${rm.heldOut.episodes.toLocaleString('en-US')} executed plans of ${rm.heldOut.tasks} held-out tasks, next to its baselines, trained and evaluated the same way (from results version 2 the verdicts are measured on valid-vs-valid outcome pairs). A model that does not beat them has learned nothing about orchestration.`,
    ),
    verdicts.length === 0 ? '' : `<ul class="verdicts">${verdicts.join('')}</ul>`,
    '<div class="figure-row">',
    await renderChartFigure(rmSourceChart(rm)),
    await renderChartFigure(rmCalibrationChart(rm)),
    '</div>',
    htmlTable({
      caption: 'Held-out pairwise accuracy by pair source (95% Wilson interval); ties count as wrong',
      columns: ['Source', 'Pairs', ...contenders.map(([name]) => name)],
      rows: sourceRows,
    }),
    ...(rm.outcomePairs === undefined
      ? []
      : [
          htmlTable({
            caption: 'Held-out outcome pairs (every correct-over-incorrect pair of the test-split episodes): valid vs valid, where orchestration skill shows, and valid vs invalid; within-task AUC among valid plans',
            columns: ['Model', 'Valid vs valid', 'Pairs', 'Valid vs invalid', 'Pairs', 'Within-task AUC (valid)'],
            rows: contenders.map(([name, metrics]): TableCell[] => {
              const entry = metrics.outcomePairs;
              if (entry === undefined) return [name, '–', '–', '–', '–', '–'];
              return [
                name,
                { text: `${percent(entry.validVsValid.accuracy)} (${percentInterval(entry.validVsValid.ci)})`, className: 'strong' },
                entry.validVsValid.total.toLocaleString('en-US'),
                percent(entry.validVsInvalid.accuracy),
                entry.validVsInvalid.total.toLocaleString('en-US'),
                entry.validWithinTaskAuc === null ? '–' : decimal(entry.validWithinTaskAuc, 3),
              ];
            }),
          }),
        ]),
    htmlTable({
      caption: 'Held-out metrics: pairwise accuracy, AUC of score vs correctness (pooled and within task), calibration error, and Best-of-N selection accuracy on executed plans',
      columns: ['Model', 'Pairwise', 'AUC', 'Within-task AUC', 'ECE', ...ns.map((n) => `BoN@${n}`)],
      rows: metricRows,
    }),
  ]);
}
