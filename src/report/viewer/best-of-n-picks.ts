import type { Store } from '../../store/index.js';

/** What one strategy did on one task at one N of a Best-of-N run. */
export interface ViewerPick {
  strategy: string;
  n: number;
  correct: boolean;
  /** The candidate it settled on (`CandidatePick` of src/select): null when none, or when the run predates picks. */
  pick: { index: number; source: 'sample' | 'template'; kind: string; score: number | null; uncertainty: number | null } | null;
  executions: number | null;
  tokens: number | null;
}

/** One Best-of-N run's outcomes on one task. */
export interface ViewerBestOfN {
  runId: string | null;
  createdAt: string;
  /** The reward model the run ranked with, as its configuration records it. */
  rewardModel: string | null;
  pool: string | null;
  rows: ViewerPick[];
}

/*
 * The stored form of a `bon` result (src/select/record-best-of-n.ts): its per-task outcomes, each
 * with the candidate the strategy picked (from results of issue 21 on). Read leniently: results
 * written before picks existed still show whether each strategy was right, and an outcome of
 * another shape is counted and left out. Checked by hand rather than by a zod schema per outcome:
 * the demo's result holds 40,000 outcomes, read while the viewer starts, and a schema per outcome
 * took 630-1,530 ms (340-520 ms of it collecting garbage) where these checks take 400-750 ms, both
 * mostly JSON.parse of the 6 MB result (measured side by side on a loaded machine).
 */
function readOutcome(raw: unknown): { taskId: string; suite: string; row: ViewerPick } | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { taskId, suite, n, strategy, correct, executions, tokens, pick } = raw as Record<string, unknown>;
  if (typeof taskId !== 'string' || typeof suite !== 'string' || typeof n !== 'number' || typeof strategy !== 'string' || typeof correct !== 'boolean') return undefined;
  return { taskId, suite, row: { strategy, n, correct, pick: readPick(pick), executions: typeof executions === 'number' ? executions : null, tokens: tokenTotal(tokens) } };
}

function readPick(raw: unknown): ViewerPick['pick'] {
  if (typeof raw !== 'object' || raw === null) return null;
  const { index, source, kind, score, uncertainty } = raw as Record<string, unknown>;
  if (typeof index !== 'number' || (source !== 'sample' && source !== 'template') || typeof kind !== 'string') return null;
  return { index, source, kind, score: typeof score === 'number' ? score : null, uncertainty: typeof uncertainty === 'number' ? uncertainty : null };
}

function tokenTotal(raw: unknown): number | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { orchestrator, execution, verification } = raw as Record<string, unknown>;
  return typeof orchestrator === 'number' && typeof execution === 'number' && typeof verification === 'number' ? orchestrator + execution + verification : null;
}

/** The Best-of-N outcomes of a database, by task, in the order the tasks first appear. */
export interface BestOfNIndex {
  /** Per task id, each run's outcomes on it. */
  byTask: Map<string, ViewerBestOfN[]>;
  /** Per task id, its suite (family), as the outcomes record it. */
  suites: Map<string, string>;
  /** Outcomes that could not be read (another format), left out. */
  unreadable: number;
}

/**
 * Reads every stored `bon` result into per-task outcomes. Best-of-N keeps outcomes only, not its
 * plans or tasks: a pick names its candidate by pool index, source (sample or template) and kind.
 *
 * @example
 * readBestOfN(store).byTask.get('test-sim-arith-3')?.[0]?.rows // [{ strategy: 'rm', n: 8, correct: true, pick: { source: 'sample', index: 3, ... } }, ...]
 */
export function readBestOfN(store: Store): BestOfNIndex {
  const byTask = new Map<string, ViewerBestOfN[]>();
  const suites = new Map<string, string>();
  let unreadable = 0;
  for (const result of store.listResults('bon')) {
    const outcomes = result.payload.outcomes;
    if (!Array.isArray(outcomes)) continue;
    const run = result.runId === undefined ? undefined : store.getRun(result.runId);
    const config = run?.config ?? {};
    const header = {
      runId: result.runId ?? null,
      createdAt: result.createdAt,
      rewardModel: typeof config.rewardModel === 'string' ? config.rewardModel : null,
      pool: typeof config.pool === 'string' ? config.pool : null,
    };
    const ofThisRun = new Map<string, ViewerBestOfN>();
    for (const raw of outcomes) {
      const outcome = readOutcome(raw);
      if (outcome === undefined) {
        unreadable++;
        continue;
      }
      let entry = ofThisRun.get(outcome.taskId);
      if (entry === undefined) {
        entry = { ...header, rows: [] };
        ofThisRun.set(outcome.taskId, entry);
        byTask.set(outcome.taskId, [...(byTask.get(outcome.taskId) ?? []), entry]);
        if (!suites.has(outcome.taskId)) suites.set(outcome.taskId, outcome.suite);
      }
      entry.rows.push(outcome.row);
    }
  }
  return { byTask, suites, unreadable };
}
