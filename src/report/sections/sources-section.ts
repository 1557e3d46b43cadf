import { decimal, percent, percentInterval, points, pointsInterval } from '../format-values.js';
import { htmlTable, type TableCell } from '../html-table.js';
import type { DemoResults } from '../results-schema.js';
import { paragraph, section } from './section.js';

type Reliability = NonNullable<DemoResults['reliability']>;

const METHOD_LABELS: Record<Reliability[number]['method'], string> = {
  calibration: 'agreement with graded outcomes (train tasks)',
  agreement: 'agreement between sources (label-free)',
  fixed: 'set in the configuration',
  prior: 'prior (too few overlaps to estimate)',
  none: 'not weighted',
};

function reliabilityTable(reliability: Reliability, caption: string): string {
  const rows = reliability.map((entry): TableCell[] => [
    entry.unit,
    decimal(entry.reliability, 3),
    entry.unit === 'outcome' && entry.method === 'calibration' ? 'the grades themselves: the truth calibration measures the others against' : METHOD_LABELS[entry.method],
    entry.basis.toLocaleString('en-US'),
    entry.weight === 0 ? { text: 'dropped', className: 'bad' } : decimal(entry.weight, 2),
  ]);
  return htmlTable({ caption, columns: ['Source or signal', 'Reliability', 'Estimated from', 'Episode pairs behind it', 'Pair weight'], rows, numericColumns: [1, 3, 4] });
}

/**
 * Which pairs the reward model learned from and how much each source was trusted: the reliability
 * of every source and process signal, the label-free model (no grade read while mining) and the
 * outcome-only model on the same held-out valid-vs-valid outcome pairs. Absent in version-1 results.
 */
export function sourcesSection(results: DemoResults): string {
  const { reliability, labelFree, outcomeOnly } = results;
  if (reliability === undefined && labelFree === undefined && outcomeOnly === undefined) return '';
  const body: string[] = [
    paragraph(
      'Every source of pairs and every process signal gets an estimated reliability: the chance that its pairs point the way the outcome would. Its pairs are weighted by it, so a noisy source pulls little and one at chance is dropped. The label-free model is trained on pairs mined with no grade read anywhere; the outcome-only model on correct-over-incorrect pairs alone.',
    ),
  ];
  if (reliability !== undefined) body.push(reliabilityTable(reliability, 'Reliability of each source of the main model’s pairs, and the weight its pairs got'));
  const models: [string, NonNullable<DemoResults['outcomeOnly']>][] = [];
  if (outcomeOnly !== undefined) models.push(['outcome pairs only', outcomeOnly]);
  if (labelFree !== undefined) models.push(['label-free pairs only', labelFree]);
  if (models.length > 0) {
    const rows = models.map(([label, entry]): TableCell[] => [
      `${entry.model} (${label})`,
      Object.entries(entry.pairs).map(([source, count]) => `${source} ${count.toLocaleString('en-US')}`).join(', '),
      `${percent(entry.outcomePairs.validVsValid.accuracy)} (${percentInterval(entry.outcomePairs.validVsValid.ci)})`,
      percent(entry.outcomePairs.validVsInvalid.accuracy),
      { text: `${points(entry.difference.diff)} ${pointsInterval(entry.difference.ci)}`, title: `minus ${entry.comparedWith}` },
      entry.comparedWith,
    ]);
    body.push(
      htmlTable({
        caption: 'Held-out outcome pairs: accuracy of models trained on part of the pairs, and their paired difference on valid-vs-valid pairs (95% bootstrap over tasks)',
        columns: ['Model', 'Trained on', 'Valid vs valid', 'Valid vs invalid', 'Difference (points)', 'Minus'],
        rows,
        numericColumns: [2, 3, 4],
      }),
    );
  }
  if (labelFree !== undefined) body.push(reliabilityTable(labelFree.reliability, 'Reliability of each label-free source, estimated without labels'));
  const bon = labelFree?.bon;
  if (bon !== undefined) {
    const rows = Object.entries(bon.strategies).map(([name, summary]): TableCell[] => [name, percent(summary.accuracy), percentInterval(summary.ci)]);
    body.push(htmlTable({ caption: `Best-of-N at N = ${bon.n} with the label-free reward model (same ${bon.tasks} test tasks and plans)`, columns: ['Strategy', 'Accuracy', '95% CI'], rows }));
  }
  return section('sources', 'Sources, reliability and labels', body);
}
