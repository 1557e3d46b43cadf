import type { MinePairsResult } from './mine-pairs.js';
import type { PairStats } from './pair-stats.js';

const percent = (value: number | null) => (value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`);

/** The human-readable summary `orchrm pairs mine` prints. */
export function formatMiningReport(result: MinePairsResult): string {
  const lines = [
    `dataset ${result.datasetId}: ${result.pairs} pair(s) from ${result.episodes} episode(s) of ${result.tasks} task(s)` +
      ` (${result.labelFreeTasks} without gold answer; ${result.withoutPlanText} episode(s) without plan text left out${result.serverFailures > 0 ? `, ${result.serverFailures} ended by a server failure left out (resume their collection on a healthy server)` : ''})`,
    `splits: train ${result.bySplit.train}, validation ${result.bySplit.validation}, test ${result.bySplit.test}`,
  ];
  for (const [source, report] of Object.entries(result.sources)) {
    if (report === undefined) continue;
    if (report.skipped !== undefined) {
      lines.push(`${source}: skipped (${report.skipped})`);
      continue;
    }
    const dropped = Object.entries(report.dropped)
      .filter(([, count]) => count > 0)
      .map(([reason, count]) => `${reason} ${count}`);
    lines.push(
      `${source}: ${report.kept} kept of ${report.mined} mined over ${report.tasksWithPairs} task(s)` +
        `${dropped.length > 0 ? `; dropped: ${dropped.join(', ')}` : ''}` +
        `${report.tasksSkipped > 0 ? `; ${report.tasksSkipped} task(s) skipped` : ''}`,
    );
  }
  if (result.labelFree) lines.push('label-free: no grade was read (checkpoint pairs unconditional, process pairs from artifacts only)');
  if (result.reliability.length > 0) {
    const from = { calibration: `agreement with outcome on ${result.calibrationTasks ?? 0} graded train task(s)`, agreement: 'agreement between sources', fixed: 'set', prior: 'prior: too few overlaps', none: 'not weighted' };
    lines.push('reliability (chance a unit\'s pairs point the right way) and pair weight:');
    for (const entry of result.reliability) {
      lines.push(`  ${entry.unit.padEnd(20)} ${entry.reliability.toFixed(3)}  ${entry.weight === 0 ? 'dropped ' : `x${entry.weight.toFixed(2).padEnd(7)}`}  ${from[entry.method]}${entry.basis > 0 ? ` (${entry.basis} episode pairs)` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The human-readable table `orchrm pairs stats` prints. */
export function formatPairStats(stats: PairStats): string {
  const lines = [`${stats.pairs} pair(s): train ${stats.bySplit.train}, validation ${stats.bySplit.validation}, test ${stats.bySplit.test}, unassigned ${stats.bySplit.unassigned}`];
  for (const [source, counts] of Object.entries(stats.bySource)) {
    const { train, validation, test, unassigned } = counts.bySplit;
    lines.push(`  ${source}: ${counts.pairs} (train ${train}, validation ${validation}, test ${test}${unassigned > 0 ? `, unassigned ${unassigned}` : ''})`);
  }
  const agreements = Object.entries(stats.agreementWithOutcome);
  if (agreements.length > 0) lines.push('agreement with outcome (label-free sources, on pairs whose two episodes were graded):');
  for (const [source, agreement] of agreements) {
    lines.push(
      `  ${source}: ${agreement.graded} of ${agreement.pairs} graded; winner at least as good ${percent(agreement.atLeastAsGood)};` +
        ` strictly better where outcomes differ ${percent(agreement.strictlyBetter)} (${agreement.differing} differ)`,
    );
  }
  return `${lines.join('\n')}\n`;
}
