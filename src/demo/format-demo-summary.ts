import type { DemoResults } from '../report/index.js';

/** The terminal summary of a demo run: the numbers a reader needs, then where the rest is. */
export function formatDemoSummary(results: DemoResults, files: { results: string; report: string; model: string }): string {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const interval = (ci: readonly [number, number] | undefined) => (ci ? ` [${percent(ci[0])}, ${percent(ci[1])}]` : '');
  const tokens = (value: number) => (value >= 1e6 ? `${(value / 1e6).toFixed(2)}M` : value >= 1e3 ? `${(value / 1e3).toFixed(1)}k` : value.toFixed(0));
  const lines: string[] = [];
  lines.push(`orchrm demo: scenario ${results.scenario}, seed ${results.seed}, ${((results.durationMs ?? 0) / 1000).toFixed(0)} s`);
  lines.push('', 'Pairs mined from the episodes (checkpoint and process pairs use no labels)');
  for (const [source, entry] of Object.entries(results.pairs)) {
    const agreement = entry.agreementWithOutcome === null ? '' : `   agrees with outcome ${percent(entry.agreementWithOutcome)}`;
    lines.push(`  ${source.padEnd(12)} ${String(entry.count).padStart(7)}${agreement}`);
  }
  const { rm } = results;
  lines.push('', `Reward model (${rm.model}), held-out tasks: pairwise accuracy ${percent(rm.pairAccuracy.overall.accuracy)}${interval(rm.pairAccuracy.overall.ci)}`);
  for (const [kind, baseline] of Object.entries(rm.baselines)) lines.push(`  ${kind} baseline ${percent(baseline.pairAccuracy.overall.accuracy)}: ${baseline.verdict}`);
  lines.push('', `Best-of-N at N = ${results.bon.n} on ${results.bon.tasks} test tasks (tokens per task: orchestrator / execution / verification)`);
  for (const [name, strategy] of Object.entries(results.bon.strategies)) {
    if (!strategy) continue;
    const split = `${tokens(strategy.tokens.orchestrator)} / ${tokens(strategy.tokens.execution)} / ${tokens(strategy.tokens.verification)}`;
    lines.push(`  ${name.padEnd(13)} ${percent(strategy.accuracy).padStart(6)}${interval(strategy.ci).padEnd(18)} ${split.padStart(24)}   ${strategy.executionsPerTask.toFixed(2)} executions`);
  }
  const { grpo } = results;
  lines.push('', `GRPO from base (held-out accuracy ${percent(grpo.baseAccuracy)} before training)`);
  for (const [label, run] of [['rm reward', grpo.rm], ['execution', grpo.execution]] as const) {
    lines.push(`  ${label.padEnd(10)} accuracy ${percent(run.accuracy)}   training tokens ${tokens(run.trainingTokens.total)} (execution ${tokens(run.trainingTokens.execution)}, verification ${tokens(run.trainingTokens.verification)})`);
  }
  lines.push(`  collecting the reward model's episodes cost ${tokens(grpo.rmCollectionTokens.total)} tokens (its own line, not in the rm total above)`);
  lines.push('', `results  ${files.results}`, `report   ${files.report}`, `model    ${files.model}  (orchrm serve --model ${files.model})`, '');
  return lines.join('\n');
}
