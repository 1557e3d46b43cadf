import { ORCHRM_VERSION } from '../core/index.js';
import type { Store } from '../store/index.js';
import type { BestOfNRun } from './run-best-of-n.js';
import { summarizeBestOfN, type BonTable } from './summarize-best-of-n.js';
import { summarizeSwitching, type SwitchingSummary } from './summarize-switching.js';

export interface RecordedBestOfN {
  runId: string;
  resultId: string;
  /** One table per N, all tasks. */
  curve: BonTable[];
  /** The same per task suite (family). */
  bySuite: Record<string, BonTable[]>;
  /** Per family and N, how often the rm strategies' picks switch away from the family's best fixed plan, and with what result (with the template pool). */
  switching: SwitchingSummary[];
}

/**
 * Stores a Best-of-N run: a `bon` run with its configuration (plus `context`, e.g. scenario and
 * reward model) and one `bon` result holding the tables at every N, overall and per suite, and
 * every per-task outcome (with the candidate each strategy picked: `TaskOutcome.pick`), and the
 * switching table at every N, so any other comparison can be computed later. With `runId`, the
 * result goes to that existing run (`runStoredBestOfN`'s), which is then marked completed.
 */
export function recordBestOfN(store: Store, run: BestOfNRun, context: Record<string, unknown> = {}, options: { runId?: string } = {}): RecordedBestOfN {
  const curve = summarizeBestOfN(run);
  const suites = [...new Set(run.outcomes.map((outcome) => outcome.suite))].sort();
  const bySuite = Object.fromEntries(suites.map((suite) => [suite, summarizeBestOfN(run, { suite })]));
  const switching = run.config.ns.flatMap((n) => summarizeSwitching(run, n));
  // A run `runStoredBestOfN` started and committed task by task gets its tables here.
  const runId = options.runId ?? store.createRun({ kind: 'bon', seed: run.config.seed, codeVersion: ORCHRM_VERSION, config: { ...context, ...run.config, tasks: run.tasks } }).id;
  const resultId = store.insertResult({
    runId,
    kind: 'bon',
    payload: {
      tasks: run.tasks,
      distinctExecutions: run.distinctExecutions,
      requestedExecutions: run.requestedExecutions,
      curve,
      bySuite,
      switching,
      outcomes: run.outcomes,
    },
  });
  store.finishRun(runId, 'completed');
  return { runId, resultId, curve, bySuite, switching };
}
