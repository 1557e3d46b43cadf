import { ORCHRM_VERSION } from '../core/index.js';
import type { Store } from '../store/index.js';
import type { BestOfNRun } from './run-best-of-n.js';
import { summarizeBestOfN, type BonTable } from './summarize-best-of-n.js';

export interface RecordedBestOfN {
  runId: string;
  resultId: string;
  /** One table per N, all tasks. */
  curve: BonTable[];
  /** The same per task suite (family). */
  bySuite: Record<string, BonTable[]>;
}

/**
 * Stores a Best-of-N run: a `bon` run with its configuration (plus `context`, e.g. scenario and
 * reward model) and one `bon` result holding the tables at every N, overall and per suite, and
 * every per-task outcome, so any other comparison can be computed later.
 */
export function recordBestOfN(store: Store, run: BestOfNRun, context: Record<string, unknown> = {}): RecordedBestOfN {
  const curve = summarizeBestOfN(run);
  const suites = [...new Set(run.outcomes.map((outcome) => outcome.suite))].sort();
  const bySuite = Object.fromEntries(suites.map((suite) => [suite, summarizeBestOfN(run, { suite })]));
  const runId = store.createRun({ kind: 'bon', seed: run.config.seed, codeVersion: ORCHRM_VERSION, config: { ...context, ...run.config, tasks: run.tasks } }).id;
  const resultId = store.insertResult({
    runId,
    kind: 'bon',
    payload: {
      tasks: run.tasks,
      distinctExecutions: run.distinctExecutions,
      requestedExecutions: run.requestedExecutions,
      curve,
      bySuite,
      outcomes: run.outcomes,
    },
  });
  store.finishRun(runId, 'completed');
  return { runId, resultId, curve, bySuite };
}
