import { percent, points, tokens } from '../format-values.js';
import { htmlTable, type TableCell } from '../html-table.js';
import type { Bill } from '../results-schema.js';
import { paragraph, section } from './section.js';

/** The whole token bill of both routes to a trained orchestrator, stage by stage, with the break-even and what it leaves out. */
export function billSection(bill: Bill): string {
  const rows: TableCell[][] = [];
  for (const [label, route] of [
    ['reward model', bill.rewardModel],
    ['execution', bill.execution],
  ] as const) {
    for (const stage of route.stages) {
      rows.push([
        label,
        { text: stage.stage + (stage.apart === undefined ? '' : ' (listed apart)'), title: stage.apart === undefined ? stage.what : `${stage.what}. Listed apart: ${stage.apart}` },
        stage.paid === 'once' ? 'once' : 'per GRPO run',
        tokens(stage.tokens.orchestrator),
        tokens(stage.tokens.execution),
        tokens(stage.tokens.verification),
        tokens(stage.tokens.total),
      ]);
    }
    rows.push([
      { text: label, className: 'strong' },
      { text: 'whole bill, one GRPO run', className: 'strong' },
      '',
      tokens(route.total.orchestrator),
      tokens(route.total.execution),
      tokens(route.total.verification),
      { text: tokens(route.total.total), className: 'strong' },
    ]);
    if (route.totalWithoutApart.total !== route.total.total) {
      rows.push([label, 'without the stages listed apart', '', tokens(route.totalWithoutApart.orchestrator), tokens(route.totalWithoutApart.execution), tokens(route.totalWithoutApart.verification), tokens(route.totalWithoutApart.total)]);
    }
  }
  const apart = bill.rewardModel.stages.filter((stage) => stage.apart !== undefined);
  return section('bill', 'The whole bill', [
    paragraph(
      `Every token each route spends to train the orchestrator once, stage by stage, from each stage’s own count. One GRPO run saves ${tokens(bill.savingPerRun)} tokens on the reward-model route; its paid-once stages are repaid after ${runs(bill.breakEvenRuns)}${apart.length > 0 ? ` (${runs(bill.breakEvenRunsWithoutApart)} without ${apart.map((stage) => stage.stage).join(', ')})` : ''}. Accuracy gain of one GRPO run (mean over seeds): reward model ${points(bill.rewardModel.accuracyGain)} points, execution ${points(bill.execution.accuracyGain)}${bill.gainShare === null ? '' : ` (${percent(bill.gainShare)} of it)`}.`,
    ),
    htmlTable({
      caption: 'Tokens by stage and role; the whole bill adds the paid-once stages to one GRPO run',
      columns: ['Route', 'Stage', 'Paid', 'Orchestrator', 'Execution', 'Verification', 'Total tokens'],
      rows,
      numericColumns: [3, 4, 5, 6],
    }),
    ...apart.map((stage) => paragraph(`${stage.stage} is listed apart: ${stage.apart}.`, 'muted')),
    paragraph(`The bill leaves out: ${bill.leavesOut.join('; ')}.`, 'muted'),
  ]);
}

function runs(count: number | null): string {
  return count === null ? 'no number of runs (a run saves nothing)' : `${count} GRPO run${count === 1 ? '' : 's'}`;
}
