import pLimit from 'p-limit';
import type { Episode } from '../core/episode.js';
import type { Grader } from '../core/grader.js';
import { stableId } from '../core/ids.js';
import type { Retriever } from '../core/retriever.js';
import { deriveSeed } from '../core/rng.js';
import type { Task } from '../core/task.js';
import { ORCHRM_VERSION } from '../core/version.js';
import type { ExecutableBlocks } from '../exec/index.js';
import { UsageMeter, type ChatProvider } from '../llm/index.js';
import { runEpisode } from '../exec/run-episode.js';
import { errorMessage } from '../exec/node-chat.js';
import type { Orchestrator } from '../orchestrator/orchestrator.js';
import type { Store } from '../store/index.js';
import { CollectTally, type CollectSummary } from './collect-summary.js';
import { checkResumable, nextRunId, runFingerprint } from './resume-run.js';

export interface CollectOptions {
  tasks: readonly Task[];
  orchestrator: Orchestrator;
  /** Answers the sub-agents' calls. */
  provider: ChatProvider;
  blocks: ExecutableBlocks;
  store: Store;
  /** Plans sampled (and executed) per task. @default 1 */
  plansPerTask?: number;
  /** Episodes in flight at once. @default 4 */
  concurrency?: number;
  /** Run seed; every episode's seed derives from it. @default 0 */
  seed?: number;
  retriever?: Retriever;
  grader?: Grader;
  tokenBudget?: number;
  timeoutMs?: number;
  /** Recorded with the run so the experiment can be repeated (never holds secrets). */
  config?: Record<string, unknown>;
  /**
   * Continue this run instead of starting one: (task, sample) pairs it already committed are
   * skipped, so nothing is redone or duplicated. It must have the same tasks, seed, plans per
   * task and orchestrator.
   */
  resumeRunId?: string;
  /** Called after each episode is committed. */
  /** Called after each episode is committed, or skipped on resume (`episode` undefined). */
  onEpisode?: (episode: Episode | undefined, done: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * Writes `plansPerTask` plans per task, executes each, and commits every episode to the store
 * in its own transaction as soon as it finishes, so a killed run loses only episodes in flight.
 */
export async function collectEpisodes(options: CollectOptions): Promise<CollectSummary> {
  const { tasks, orchestrator, store, plansPerTask = 1, concurrency = 4, seed = 0 } = options;
  const startedAt = performance.now();
  store.upsertTasks(tasks);
  const fingerprint = runFingerprint(seed, plansPerTask, orchestrator.ref, tasks);
  const runId =
    options.resumeRunId !== undefined
      ? checkResumable(store, options.resumeRunId, fingerprint)
      : store.createRun({
          id: nextRunId(store, fingerprint),
          kind: 'collect',
          seed,
          codeVersion: ORCHRM_VERSION,
          config: {
            ...options.config,
            fingerprint,
            orchestrator: orchestrator.ref,
            format: orchestrator.format,
            dom: orchestrator.dom ?? 'auto',
            plansPerTask,
            concurrency,
            tokenBudget: options.tokenBudget ?? null,
            timeoutMs: options.timeoutMs ?? null,
            tasks: tasks.length,
          },
        }).id;
  const limit = pLimit(concurrency);
  const total = tasks.length * plansPerTask;
  const meter = new UsageMeter();
  const tally = new CollectTally(runId, meter);
  let done = 0;
  const committed = (task: Task, sampleIndex: number) =>
    options.resumeRunId !== undefined &&
    store.hasEpisode({ runId, taskId: task.id, sampleIndex, orchestrator: orchestrator.ref.name, ...(orchestrator.ref.checkpoint !== undefined && { checkpoint: orchestrator.ref.checkpoint }) });
  const jobs = tasks.flatMap((task) =>
    Array.from({ length: plansPerTask }, (_, sampleIndex) =>
      limit(async () => {
        if (committed(task, sampleIndex)) {
          tally.skip();
          options.onEpisode?.(undefined, ++done, total);
          return;
        }
        const episode = await collectOne(options, meter, runId, task, sampleIndex, seed);
        store.insertEpisode(episode);
        tally.add(episode);
        options.onEpisode?.(episode, ++done, total);
      }),
    ),
  );
  try {
    await Promise.all(jobs);
    store.finishRun(runId, 'completed');
  } catch (error) {
    store.finishRun(runId, 'failed');
    throw error;
  }
  return tally.summary(performance.now() - startedAt);
}

async function collectOne(
  options: CollectOptions,
  meter: UsageMeter,
  runId: string,
  task: Task,
  sampleIndex: number,
  runSeed: number,
): Promise<Episode> {
  const { orchestrator } = options;
  const seed = deriveSeed(runSeed, `${task.id}#${sampleIndex}`);
  const id = stableId('ep', runId, task.id, sampleIndex);
  const common = {
    id,
    runId,
    task,
    seed,
    sampleIndex,
    orchestrator: orchestrator.ref,
    meter: { meter, episodeId: id },
    blocks: options.blocks,
    provider: options.provider,
    ...(orchestrator.dom !== undefined && { dom: orchestrator.dom }),
    ...(options.retriever !== undefined && { retriever: options.retriever }),
    ...(options.grader !== undefined && { grader: options.grader }),
    ...(options.tokenBudget !== undefined && { tokenBudget: options.tokenBudget }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.signal !== undefined && { signal: options.signal }),
  };
  const orchestratorAttribution = { episodeId: id, role: 'orchestrator' as const };
  let written;
  try {
    written = await orchestrator.writePlan(task, {
      sampleIndex,
      seed,
      ...(options.signal !== undefined && { signal: options.signal }),
    });
    if (written.call) meter.record({ ...orchestratorAttribution, usage: written.call.usage, attempts: written.call.attempts, cached: written.call.cached });
  } catch (error) {
    meter.recordFailure(orchestratorAttribution, error);
    // The orchestrator's server failed after its retries: keep the failure as an episode.
    const episode = await runEpisode({ ...common, planText: '' });
    return { ...episode, status: 'runtime_error', reason: `orchestrator call failed: ${errorMessage(error)}`, diagnostics: [] };
  }
  return runEpisode({
    ...common,
    planText: written.text,
    ...(written.call !== undefined && { orchestratorCall: written.call }),
  });
}
