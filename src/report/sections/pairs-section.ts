import { pairAgreementChart, pairCountChart, pairSources } from '../charts/pairs-charts.js';
import { percent } from '../format-values.js';
import { htmlTable, type TableCell } from '../html-table.js';
import { renderChartFigure } from '../render-chart.js';
import type { DemoResults } from '../results-schema.js';
import { paragraph, section } from './section.js';

/** Pairs mined per source and how often each label-free source agrees with the outcome. */
export async function pairsSection(pairs: DemoResults['pairs']): Promise<string> {
  const agreement = pairAgreementChart(pairs);
  const total = Object.values(pairs).reduce((sum, stats) => sum + stats.count, 0);
  const rows = pairSources(pairs).map(([source, stats]): TableCell[] => [
    source,
    stats.count.toLocaleString('en-US'),
    stats.agreementWithOutcome === null ? { text: 'decided by outcome', className: 'muted' } : { text: percent(stats.agreementWithOutcome), className: 'strong' },
    stats.differing === undefined ? '' : stats.differing.toLocaleString('en-US'),
    stats.atLeastAsGood === undefined || stats.atLeastAsGood === null ? '' : percent(stats.atLeastAsGood),
  ]);
  return section('pairs', 'Pairs mined from the episodes', [
    paragraph(
      `${total.toLocaleString('en-US')} win-lose pairs were mined from the collected episodes. Outcome and efficiency pairs are decided by reading the grades; the label-free sources (checkpoint, process) never look at them, and their agreement with the outcome, measured afterwards, says how much outcome signal they carry (reported, never used to filter them). How each source's pairs were weighted, and which model was trained on pairs mined with no grade read anywhere, is in the sources section.`,
    ),
    '<div class="figure-row">',
    await renderChartFigure(pairCountChart(pairs)),
    agreement === undefined ? paragraph('No label-free source has graded pairs with differing outcomes, so agreement with outcome cannot be shown.', 'note') : await renderChartFigure(agreement),
    '</div>',
    htmlTable({
      caption: 'Pairs per source; agreement = share of graded pairs with differing outcomes whose winner was correct',
      columns: ['Source', 'Pairs', 'Agreement with outcome', 'Graded pairs that differ', 'Winner at least as good'],
      rows,
    }),
  ]);
}
