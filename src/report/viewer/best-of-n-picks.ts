import { z } from 'zod';
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
 * written before picks existed still show whether each strategy was right.
 */
const StoredOutcomeSchema = z.object({
  taskId: z.string(),
  suite: z.string(),
  n: z.number(),
  strategy: z.string(),
  correct: z.boolean(),
  executions: z.number().optional(),
  tokens: z.object({ orchestrator: z.number(), execution: z.number(), verification: z.number() }).optional(),
  pick: z
    .object({ index: z.number(), source: z.enum(['sample', 'template']), kind: z.string(), score: z.number().optional(), uncertainty: z.number().optional() })
    .optional(),
});
const StoredBonPayloadSchema = z.object({ outcomes: z.array(z.unknown()) });

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
    const payload = StoredBonPayloadSchema.safeParse(result.payload);
    if (!payload.success) continue;
    const run = result.runId === undefined ? undefined : store.getRun(result.runId);
    const config = run?.config ?? {};
    const header = {
      runId: result.runId ?? null,
      createdAt: result.createdAt,
      rewardModel: typeof config.rewardModel === 'string' ? config.rewardModel : null,
      pool: typeof config.pool === 'string' ? config.pool : null,
    };
    const ofThisRun = new Map<string, ViewerBestOfN>();
    for (const raw of payload.data.outcomes) {
      const parsed = StoredOutcomeSchema.safeParse(raw);
      if (!parsed.success) {
        unreadable++;
        continue;
      }
      const outcome = parsed.data;
      let entry = ofThisRun.get(outcome.taskId);
      if (entry === undefined) {
        entry = { ...header, rows: [] };
        ofThisRun.set(outcome.taskId, entry);
        byTask.set(outcome.taskId, [...(byTask.get(outcome.taskId) ?? []), entry]);
        if (!suites.has(outcome.taskId)) suites.set(outcome.taskId, outcome.suite);
      }
      const { pick } = outcome;
      entry.rows.push({
        strategy: outcome.strategy,
        n: outcome.n,
        correct: outcome.correct,
        pick: pick === undefined ? null : { index: pick.index, source: pick.source, kind: pick.kind, score: pick.score ?? null, uncertainty: pick.uncertainty ?? null },
        executions: outcome.executions ?? null,
        tokens: outcome.tokens === undefined ? null : outcome.tokens.orchestrator + outcome.tokens.execution + outcome.tokens.verification,
      });
    }
  }
  return { byTask, suites, unreadable };
}
