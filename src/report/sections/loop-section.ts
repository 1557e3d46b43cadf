import { loopChart } from '../charts/loop-chart.js';
import { percent, percentInterval, tokens } from '../format-values.js';
import { htmlTable, type TableCell } from '../html-table.js';
import { renderChartFigure } from '../render-chart.js';
import type { DemoResults } from '../results-schema.js';
import { section } from './section.js';

/** `orchrm loop`: per-round held-out pairwise accuracy, BoN@8 accuracy and tokens. */
export async function loopSection(loop: NonNullable<DemoResults['loop']>): Promise<string> {
  const rows = loop.map((round): TableCell[] => [
    String(round.round),
    round.pairs === undefined ? '' : round.pairs.toLocaleString('en-US'),
    percent(round.pairAccuracy) + (round.pairAccuracyCi ? ` (${percentInterval(round.pairAccuracyCi)})` : ''),
    percent(round.bonAccuracy) + (round.bonAccuracyCi ? ` (${percentInterval(round.bonAccuracyCi)})` : ''),
    tokens(round.tokens.orchestrator),
    tokens(round.tokens.execution),
    tokens(round.tokens.verification),
    tokens(round.tokens.total),
  ]);
  return section('loop', 'Self-improvement loop', [
    await renderChartFigure(loopChart(loop)),
    htmlTable({
      caption: 'Per round: pairs trained on, held-out pairwise accuracy and Best-of-8 accuracy (95% CI), tokens spent in the round by role',
      columns: ['Round', 'Pairs', 'Pairwise accuracy', 'Best-of-8 accuracy', 'Orchestrator', 'Execution', 'Verification', 'Total tokens'],
      rows,
    }),
  ]);
}
