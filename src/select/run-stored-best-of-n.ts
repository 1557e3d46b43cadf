import { ORCHRM_VERSION, sha256, stableId, stableStringify, UserError } from '../core/index.js';
import type { RunRecord, Store } from '../store/index.js';
import { parseBonConfig } from './bon-config.js';
import { recordBestOfN, type RecordedBestOfN } from './record-best-of-n.js';
import { runBestOfN, type BestOfNOptions, type BestOfNRun, type BonTaskResult } from './run-best-of-n.js';

/** The result kind under which each finished task of a `bon` run is committed. */
export const BON_TASK_RESULT_KIND = 'bon-task';

export interface StoredBestOfNOptions extends Omit<BestOfNOptions, 'completedTasks' | 'onTaskDone'> {
  store: Store;
  /** Recorded with the run (scenario, reward model file, ...); part of what a continued run must match. */
  context?: Record<string, unknown>;
  /**
   * Continue this unfinished run; by default the newest unfinished `bon` run with the same
   * fingerprint (configuration, tasks, orchestrator, templates, reward model) is continued, and a
   * new run is started when there is none.
   */
  resumeRunId?: string;
}

export interface StoredBestOfN {
  runId: string;
  /** True when an earlier invocation's run was continued. */
  continued: boolean;
  /** Tasks an earlier invocation had committed (not redone). */
  skipped: number;
  run: BestOfNRun;
  /** The tables, recorded when every task completed; undefined when some failed (the run stays unfinished). */
  recorded?: RecordedBestOfN;
}

/**
 * `runBestOfN` that commits each task to the store as soon as it finishes (a `bon-task` result of
 * the run), so a killed run loses only the tasks in flight, a task whose requests failed after
 * their retries does not end the run, and running it again continues it: committed tasks are
 * read back, not redone, and give the same outcomes (every draw derives from the seed and the
 * task). The tables are recorded (`recordBestOfN`) and the run marked completed once every task
 * is in; otherwise the run is marked failed and the failures are returned.
 */
export async function runStoredBestOfN(options: StoredBestOfNOptions): Promise<StoredBestOfN> {
  const { store, context = {} } = options;
  const config = parseBonConfig(options.config ?? {});
  const orchestrator = options.orchestrator ?? options.environment.orchestrator();
  const templates = config.pool === 'sampled+templates' ? (options.templates ?? options.environment.templates) : undefined;
  const fingerprint = {
    config,
    tasks: sha256(stableStringify(options.tasks.map((task) => [task.id, task.question]))),
    orchestrator: orchestrator.ref,
    templates: templates?.names ?? null,
    rewardModel: options.rewardModel?.name ?? null,
    context,
  };
  // The run records what recordBestOfN's own runs record, and the fingerprint a continuation must match.
  const runConfig = { ...context, ...config, tasks: options.tasks.length, fingerprint };
  const { runId, continued } = startRun(store, runConfig, options.resumeRunId);
  const completedTasks = new Map<string, BonTaskResult>();
  for (const result of store.listResults(BON_TASK_RESULT_KIND)) {
    if (result.runId !== runId) continue;
    const task = result.payload as unknown as BonTaskResult;
    completedTasks.set(task.taskId, task);
  }
  const skipped = completedTasks.size;
  let run: BestOfNRun;
  try {
    run = await runBestOfN({
      ...options,
      orchestrator,
      config,
      completedTasks,
      onTaskDone: (result) => {
        store.insertResult({ runId, kind: BON_TASK_RESULT_KIND, payload: { ...result } });
      },
    });
  } catch (error) {
    store.finishRun(runId, options.signal?.aborted === true ? 'interrupted' : 'failed');
    throw error;
  }
  if ((run.failedTasks?.length ?? 0) > 0 || (run.notStarted ?? 0) > 0) {
    store.finishRun(runId, 'failed');
    return { runId, continued, skipped, run };
  }
  const recorded = recordBestOfN(store, run, context, { runId });
  return { runId, continued, skipped, run, recorded };
}

function startRun(store: Store, runConfig: Record<string, unknown> & { fingerprint: object; seed: number }, resumeRunId: string | undefined): { runId: string; continued: boolean } {
  const key = stableStringify(runConfig.fingerprint);
  if (resumeRunId !== undefined) {
    const run = store.getRun(resumeRunId);
    if (run === undefined || run.kind !== 'bon') throw new UserError(`cannot resume bon run ${resumeRunId}: this database holds no such run; check the id the interrupted run printed`);
    if (stableStringify(run.config.fingerprint) !== key) throw new UserError(`cannot resume bon run ${resumeRunId}: it ran another configuration, tasks, orchestrator or reward model; run the same command as it did`);
    if (run.status === 'completed') throw new UserError(`bon run ${resumeRunId} is already complete; its tables are stored as its result`);
    return { runId: run.id, continued: true };
  }
  let latest: RunRecord | undefined;
  let ordinal = 0;
  for (; ; ordinal++) {
    const run = store.getRun(stableId('bon', key, ordinal));
    if (run === undefined) break;
    latest = run;
  }
  if (latest !== undefined && latest.status !== 'completed') return { runId: latest.id, continued: true };
  const id = stableId('bon', key, ordinal);
  store.createRun({ id, kind: 'bon', seed: runConfig.seed, codeVersion: ORCHRM_VERSION, config: runConfig });
  return { runId: id, continued: false };
}
