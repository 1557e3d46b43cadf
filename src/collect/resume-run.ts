import { type OrchestratorRef, sha256, stableId, stableStringify, type Task, UserError } from '../core/index.js';
import type { RunRecord, Store } from '../store/index.js';

/** What must be equal for a run to be resumed: the same work, the same seed, the same writer. */
export interface RunFingerprint {
  seed: number;
  plansPerTask: number;
  orchestrator: OrchestratorRef;
  /** sha256 of the task ids and questions, in order. */
  tasks: string;
  /**
   * The template plans run beside the samples, on what share of the tasks and, when chosen per
   * task, sha256 of each task's chosen positions; absent when none (so older runs keep their fingerprints).
   */
  templates?: { names: readonly string[]; share: number; perTask?: string };
}

export function runFingerprint(seed: number, plansPerTask: number, orchestrator: OrchestratorRef, tasks: readonly Task[], templates?: RunFingerprint['templates']): RunFingerprint {
  return {
    seed,
    plansPerTask,
    orchestrator,
    tasks: sha256(stableStringify(tasks.map((task) => [task.id, task.question]))),
    ...(templates !== undefined && { templates: { names: [...templates.names], share: templates.share, ...(templates.perTask !== undefined && { perTask: templates.perTask }) } }),
  };
}

/**
 * The id of a new run: derived from its fingerprint and how many runs with that fingerprint the
 * store already holds, so the same collection into the same store gets the same ids (episode
 * ids derive from it, and what is mined from the episodes then does not depend on chance).
 */
export function nextRunId(store: Store, fingerprint: RunFingerprint): string {
  for (let ordinal = 0; ; ordinal++) {
    const id = runIdAt(fingerprint, ordinal);
    if (store.getRun(id) === undefined) return id;
  }
}

/** The id of the `ordinal`-th run (from 0) with this fingerprint. */
export function runIdAt(fingerprint: RunFingerprint, ordinal: number): string {
  return stableId('run', stableStringify(fingerprint), ordinal);
}

/**
 * The newest run this store holds with this fingerprint (run ids derive from it, see
 * `nextRunId`), so a repeated collection can continue it instead of duplicating it.
 */
export function latestRunWithFingerprint(store: Store, fingerprint: RunFingerprint): RunRecord | undefined {
  let latest: RunRecord | undefined;
  for (let ordinal = 0; ; ordinal++) {
    const run = store.getRun(runIdAt(fingerprint, ordinal));
    if (run === undefined) return latest;
    latest = run;
  }
}

/**
 * Checks that a run can be resumed with this configuration and returns its id. A resumed run
 * must do the same work with the same seed, or its episodes would not be those of one run.
 */
export function checkResumable(store: Store, runId: string, fingerprint: RunFingerprint): string {
  const run = store.getRun(runId);
  if (!run) throw new UserError(`cannot resume run ${runId}: it is not in this database; check the id with the run's summary`);
  if (run.kind !== 'collect') throw new UserError(`cannot resume run ${runId}: it is a ${run.kind} run, not a collection`);
  const stored = run.config.fingerprint;
  const keys = new Set([...Object.keys(fingerprint), ...Object.keys((stored as object | undefined) ?? {})]) as Set<keyof RunFingerprint>;
  const differing = [...keys].filter(
    (key) => stableStringify((stored as Partial<RunFingerprint> | undefined)?.[key]) !== stableStringify(fingerprint[key]),
  );
  if (differing.length > 0) {
    throw new UserError(
      `cannot resume run ${runId}: ${differing.join(', ')} differ from the run's; resume with the same tasks, --seed, --plans-per-task, orchestrator and templates, or start a new run`,
    );
  }
  return run.id;
}
