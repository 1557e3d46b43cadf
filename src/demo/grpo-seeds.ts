import { meanInterval } from '../rm/index.js';
import type { DemoResults, GrpoRunResult } from '../report/index.js';
import { addTokenSplits } from './token-split.js';

/**
 * GRPO over several seeds (issue 21: one run of execution-reward GRPO moved between 53.5% and
 * 58.0% across five runs of default): per reward, each seed's final held-out accuracy, their
 * mean with a 95% Student-t interval over seeds, and the mean training tokens.
 */
export function grpoSeedsSummary(seeds: readonly number[], runs: { rm: readonly GrpoRunResult[]; execution: readonly GrpoRunResult[] }): NonNullable<DemoResults['grpo']['seeds']> {
  const summary = (list: readonly GrpoRunResult[]) => {
    const accuracies = list.map((run) => run.accuracy);
    const { mean, ci } = meanInterval(accuracies);
    const total = addTokenSplits(...list.map((run) => run.trainingTokens));
    const scale = (value: number) => value / Math.max(1, list.length);
    return {
      accuracies,
      mean,
      ci: [Math.max(0, ci.low), Math.min(1, ci.high)] as [number, number],
      trainingTokens: { orchestrator: scale(total.orchestrator), execution: scale(total.execution), verification: scale(total.verification), total: scale(total.total) },
    };
  };
  return { seeds: [...seeds], rm: summary(runs.rm), execution: summary(runs.execution) };
}
