import { setTimeout as sleep, setImmediate as yieldToEventLoop } from 'node:timers/promises';
import pLimit from 'p-limit';
import { deriveSeed, type Episode, type EventSink, ORCHRM_VERSION, type OrchestratorRef, type PlanTemplateLibrary, sha256, stableId, stableStringify, type Task, UserError } from '../core/index.js';
import type { Environment } from '../environment/index.js';
import { errorMessage, runEpisode } from '../exec/index.js';
import { isServerFailure, UsageMeter } from '../llm/index.js';
import type { Orchestrator } from '../orchestrator/index.js';
import { DuplicateEpisodeError, RUN_LEASE_RENEW_MS, type Store } from '../store/index.js';
import { callFailure } from './call-failure.js';
import type { CollectEvent, CollectProgress } from './collect-events.js';
import { CollectStoppedError } from './collect-stopped-error.js';
import { CollectTally, TEMPLATE_ORCHESTRATOR, type CollectSummary } from './collect-summary.js';
import { checkResumable, latestRunWithFingerprint, nextRunId, runFingerprint, runIdAt, type RunFingerprint } from './resume-run.js';

export interface CollectOptions {
  /**
   * Where the episodes run: its provider answers the sub-agents' calls, its blocks run the plans,
   * its retriever answers search blocks and its grader grades the answers.
   */
  environment: Environment;
  tasks: readonly Task[];
  /**
   * Writes the plans: one of the environment's (`environment.orchestrator('strong', { format: 'xml' })`)
   * or any other, such as one that wraps it. @default environment.orchestrator(), the environment's own
   */
  orchestrator?: Orchestrator;
  store: Store;
  /** Plans sampled (and executed) per task. @default 1 */
  plansPerTask?: number;
  /** Episodes in flight at once. @default 4 */
  concurrency?: number;
  /** Run seed; every episode's seed derives from it. @default 0 */
  seed?: number;
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
  /**
   * What to do when the store already holds a run with the same fingerprint (tasks, seed, plans
   * per task, orchestrator): `new-run` collects it again under a new run id; `continue` resumes
   * the newest such run, which does nothing but summarise it when it completed.
   * @default 'new-run'
   */
  sameFingerprint?: 'new-run' | 'continue';
  /**
   * Stops the run when this many episodes in a row end with the same model-call error (a dead
   * server, a rejected key, a wrong model name), instead of spending the rest of the run on it.
   * 0 never stops. @default 5
   */
  stopAfterRepeatedFailures?: number;
  /**
   * Template plans executed beside the sampled ones (issue 21): on a seeded `share` of the tasks
   * (each task in with probability `share`, by a hash of the seed and its id), every template of
   * the library runs once, as sample `plansPerTask + k` of its task, with orchestrator
   * `template` and checkpoint the template's name. A reward model can only rank plans whose
   * outcomes it has seen; the miners pair these episodes like any other plan.
   */
  templates?: CollectTemplates;
  /** Typed progress events: start, each episode's end, and the end of the run. */
  events?: EventSink<CollectEvent>;
  /** Aborting stops the run: episodes in flight are dropped (a resume redoes them) and CollectStoppedError is thrown. */
  signal?: AbortSignal;
}

/** What `CollectOptions.templates` asks for. */
export interface CollectTemplates {
  /** The environment's templates (`environment.templates`), a file's (`loadPlanTemplates`) or the generic ones. */
  library: PlanTemplateLibrary;
  /** Share of the tasks on which the templates run, in [0, 1]. */
  share: number;
  /**
   * The templates each task of the share runs, by position in `library.names` (every template
   * when absent; a task the map lacks runs none): an active collection's choice per task.
   */
  perTask?: ReadonlyMap<string, readonly number[]>;
}

/** `perTask` as the run's fingerprint records it: sha256 of the collection's tasks in order, each with its positions. */
function perTaskRecord(tasks: readonly Task[], perTask: ReadonlyMap<string, readonly number[]>): string {
  return sha256(stableStringify(tasks.map((task) => [task.id, perTask.get(task.id) ?? []])));
}

/** Whether a task is among the `share` of tasks on which the templates run: a hash of the seed and its id, so adding tasks never moves one. */
export function runsTemplates(seed: number, taskId: string, share: number): boolean {
  return deriveSeed(seed, `templates:${taskId}`) / 2 ** 32 < share;
}

/** A collection's summary, and whether it continued a run the store already held. */
export type CollectResult = CollectSummary & {
  /** True when an earlier run with the same fingerprint (or `resumeRunId`) was continued. */
  continued: boolean;
};

/**
 * Writes `plansPerTask` plans per task, executes each, and commits every episode to the store
 * in its own transaction as soon as it finishes, so a killed run loses only episodes in flight.
 * An episode that a server failure ended (`server_error`, see `isServerFailure`) is kept apart
 * and counted; a resumed run redoes it and replaces it, and the run is marked `failed` until
 * none is left.
 * Throws CollectStoppedError (with the summary so far) when stopped by repeated failures or the
 * caller's signal; the run is then marked `failed` or `interrupted` and can be resumed.
 */
export async function collectEpisodes(options: CollectOptions): Promise<CollectResult> {
  const { tasks, store, plansPerTask = 1, concurrency = 4, seed = 0, stopAfterRepeatedFailures = 5 } = options;
  const orchestrator = options.orchestrator ?? options.environment.orchestrator();
  const { templates } = options;
  if (templates !== undefined && !(templates.share >= 0 && templates.share <= 1)) throw new UserError(`the share of tasks that run the templates must be in [0, 1], got ${templates.share}`);
  const startedAt = performance.now();
  store.upsertTasks(tasks);
  if (templates?.perTask !== undefined) {
    for (const [taskId, positions] of templates.perTask) {
      const wrong = positions.find((position) => !Number.isInteger(position) || position < 0 || position >= templates.library.names.length);
      if (wrong !== undefined) throw new UserError(`task ${taskId} asks for template ${wrong}, but the library has ${templates.library.names.length} (positions 0 to ${templates.library.names.length - 1})`);
      const twice = positions.find((position, index) => positions.indexOf(position) !== index);
      if (twice !== undefined) throw new UserError(`task ${taskId} lists template ${twice} twice; each template runs once per task`);
    }
  }
  const fingerprint = runFingerprint(seed, plansPerTask, orchestrator.ref, tasks, templates === undefined ? undefined : { names: templates.library.names, share: templates.share, ...(templates.perTask !== undefined && { perTask: perTaskRecord(tasks, templates.perTask) }) });
  const started = startRun(options, orchestrator, fingerprint, { plansPerTask, concurrency, seed });
  const { runId } = started;
  // A process that had to wait for the run's lease continues the other's work, whoever created the run.
  const continued = (await takeRunLease(store, runId, options)) || started.continued;
  const renewLease = setInterval(() => store.renewRunLease(runId), RUN_LEASE_RENEW_MS);
  renewLease.unref();
  try {
    return await collectRun(options, orchestrator, { runId, continued, startedAt, plansPerTask, concurrency, seed, stopAfterRepeatedFailures });
  } finally {
    clearInterval(renewLease);
    store.releaseRunLease(runId);
  }
}

/** How often a collection waiting for another process's lease of its run looks again. @unit milliseconds */
const LEASE_POLL_MS = 500;

/**
 * Waits until this process holds the run's lease: two identical collections into one database
 * (the same fingerprint, so the same run) would otherwise both do all of it. The one that waits
 * then finds the other's episodes committed and only summarises them (or finishes what is left).
 * Whether it had to wait.
 */
async function takeRunLease(store: Store, runId: string, options: CollectOptions): Promise<boolean> {
  let announced = false;
  for (;;) {
    const lease = store.acquireRunLease(runId);
    if (lease.acquired) return announced;
    if (!announced) options.events?.({ type: 'collect-waiting', runId, holder: { pid: lease.holder.pid, host: lease.holder.host } });
    announced = true;
    try {
      await sleep(LEASE_POLL_MS, undefined, options.signal === undefined ? {} : { signal: options.signal });
    } catch (error) {
      if (!options.signal?.aborted) throw error;
      const nothing = new CollectTally(runId, new UsageMeter(), 0).summary(0);
      throw new CollectStoppedError(`collection of run ${runId} was interrupted while it waited for process ${lease.holder.pid}, which is collecting the same run`, 'aborted', runId, nothing);
    }
  }
}

/** The collection proper, once this process holds the run's lease. */
async function collectRun(
  options: CollectOptions,
  orchestrator: Orchestrator,
  run: { runId: string; continued: boolean; startedAt: number; plansPerTask: number; concurrency: number; seed: number; stopAfterRepeatedFailures: number },
): Promise<CollectResult> {
  const { tasks, store } = options;
  const { runId, continued, startedAt, plansPerTask, concurrency, seed, stopAfterRepeatedFailures } = run;
  const { templates } = options;
  const limit = pLimit(concurrency);
  const templateNames = templates?.library.names ?? [];
  const templateRuns = templates === undefined || templates.share === 0 ? [] : tasks.filter((task) => runsTemplates(seed, task.id, templates.share)).map((task) => ({ task, positions: templates.perTask === undefined ? [...templateNames.keys()] : (templates.perTask.get(task.id) ?? []) }));
  const templateTasks = templateRuns.filter((run) => run.positions.length > 0);
  const total = tasks.length * plansPerTask + templateTasks.reduce((sum, run) => sum + run.positions.length, 0);
  const meter = new UsageMeter();
  const tally = new CollectTally(runId, meter, total, templates === undefined ? undefined : templateTasks.length);
  const stop = new AbortController();
  const signal = options.signal === undefined ? stop.signal : AbortSignal.any([stop.signal, options.signal]);
  let stopped: CollectStoppedError | undefined;
  let streak = { failure: '', episodes: 0 };
  let collectedNow = 0;

  const progress = (): CollectProgress => {
    const elapsedMs = performance.now() - startedAt;
    const rate = collectedNow > 0 ? collectedNow / (elapsedMs / 1000) : 0;
    return {
      runId,
      done: tally.done,
      total,
      failed: tally.failed,
      tokens: meter.totalTokens(),
      elapsedMs,
      episodesPerSecond: rate,
      etaMs: rate > 0 ? ((total - tally.done) / rate) * 1000 : null,
    };
  };
  const stopWith = (error: CollectStoppedError) => {
    stopped ??= error;
    stop.abort(error);
  };
  const onAbort = () => {
    if (stopped === undefined) stopWith(new CollectStoppedError(`collection of run ${runId} was interrupted`, 'aborted', runId, tally.summary(0)));
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  // Episodes an earlier invocation committed count in the summary, so a resumed run reports all of it.
  const committed = (task: Task, sampleIndex: number, ref: OrchestratorRef): Episode | undefined => {
    if (!continued) return undefined;
    const key = { runId, taskId: task.id, sampleIndex, orchestrator: ref.name, ...(ref.checkpoint !== undefined && { checkpoint: ref.checkpoint }) };
    return store.hasEpisode(key) ? store.getEpisode(stableId('ep', runId, task.id, sampleIndex)) : undefined;
  };
  const samples: Sample[] = [
    ...tasks.flatMap((task) => Array.from({ length: plansPerTask }, (_, sampleIndex) => ({ task, sampleIndex, ref: orchestrator.ref }))),
    ...templateTasks.flatMap(({ task, positions }) =>
      positions.map((position) => ({ task, sampleIndex: plansPerTask + position, ref: { name: TEMPLATE_ORCHESTRATOR, checkpoint: templateNames[position]! }, template: position })),
    ),
  ];
  const pending = samples.filter(({ task, sampleIndex, ref }) => {
    const earlier = committed(task, sampleIndex, ref);
    // A sample the server failed is redone: its stored episode is replaced when the new one commits.
    if (earlier === undefined || earlier.status === 'server_error') return true;
    tally.addCommitted(earlier);
    return false;
  });
  options.events?.({ type: 'collect-start', continued, ...progress() });

  const jobs = pending.map((sample) =>
    limit(async () => {
      const { task, sampleIndex } = sample;
      // Between episodes, let timers and signal handlers (Ctrl-C) run, whatever the provider does.
      await yieldToEventLoop();
      if (signal.aborted) return;
      let episode: Episode;
      try {
        episode =
          sample.template === undefined
            ? await collectOne(options, orchestrator, signal, meter, runId, task, sampleIndex, seed)
            : await collectTemplate(options, templates!.library, sample.template, signal, meter, runId, task, sampleIndex, seed);
      } catch (error) {
        if (signal.aborted) return;
        throw error;
      }
      // An episode cut short by the stop is not kept: resuming redoes it.
      if (signal.aborted) return;
      try {
        store.insertEpisode(episode, { replaceServerFailure: true });
      } catch (error) {
        // Another process continuing the same run committed this sample first.
        if (error instanceof DuplicateEpisodeError) return;
        throw error;
      }
      collectedNow++;
      tally.add(episode);
      const failure = callFailure(episode) ?? null;
      streak = failure === null ? { failure: '', episodes: 0 } : failure === streak.failure ? { failure, episodes: streak.episodes + 1 } : { failure, episodes: 1 };
      options.events?.({
        type: 'episode-end',
        episodeId: episode.id,
        taskId: task.id,
        sampleIndex,
        status: episode.status,
        correct: episode.grade?.correct ?? null,
        episodeTokens: episode.usage.orchestrator.totalTokens + episode.usage.execution.totalTokens + episode.usage.verification.totalTokens,
        failure,
        ...progress(),
      });
      if (stopAfterRepeatedFailures > 0 && streak.episodes >= stopAfterRepeatedFailures) {
        stopWith(
          new CollectStoppedError(
            `stopped run ${runId}: the last ${streak.episodes} episodes failed with the same error, and so would the rest: ${streak.failure}`,
            'repeated-failure',
            runId,
            tally.summary(0),
          ),
        );
      }
    }),
  );
  try {
    await Promise.all(jobs);
  } catch (error) {
    store.finishRun(runId, 'failed');
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  const summary = tally.summary(performance.now() - startedAt);
  if (stopped !== undefined) {
    store.finishRun(runId, stopped.reason === 'aborted' ? 'interrupted' : 'failed');
    options.events?.({ type: 'collect-end', summary, stopped: { reason: stopped.reason, message: stopped.message } });
    throw new CollectStoppedError(stopped.message, stopped.reason, runId, summary, { cause: stopped.cause });
  }
  // Samples the server failed are missing from the run: it is not complete until a resume redoes them.
  store.finishRun(runId, (summary.byStatus.server_error ?? 0) > 0 ? 'failed' : 'completed');
  options.events?.({ type: 'collect-end', summary, stopped: null });
  return { ...summary, continued };
}

/** Starts a run, or picks the one to continue (`resumeRunId`, or the same fingerprint's with `sameFingerprint: 'continue'`). */
function startRun(
  options: CollectOptions,
  orchestrator: Orchestrator,
  fingerprint: RunFingerprint,
  settings: { plansPerTask: number; concurrency: number; seed: number },
): { runId: string; continued: boolean } {
  const { store } = options;
  if (options.resumeRunId !== undefined) return { runId: checkResumable(store, options.resumeRunId, fingerprint), continued: true };
  if (options.sameFingerprint === 'continue') {
    const existing = latestRunWithFingerprint(store, fingerprint);
    if (existing !== undefined) return { runId: existing.id, continued: true };
  }
  // Continuing, no run of this fingerprint existed a moment ago, so this one is its first: a process
  // that creates it in between is then continued (below), never joined by a second run doing the same work.
  const id = options.sameFingerprint === 'continue' ? runIdAt(fingerprint, 0) : nextRunId(store, fingerprint);
  const config = {
    ...options.config,
    fingerprint,
    orchestrator: orchestrator.ref,
    format: orchestrator.format,
    dom: orchestrator.dom ?? 'auto',
    plansPerTask: settings.plansPerTask,
    concurrency: settings.concurrency,
    tokenBudget: options.tokenBudget ?? null,
    timeoutMs: options.timeoutMs ?? null,
    tasks: options.tasks.length,
  };
  try {
    return { runId: store.createRun({ id, kind: 'collect', seed: settings.seed, codeVersion: ORCHRM_VERSION, config }).id, continued: false };
  } catch (error) {
    // Another process started the same run a moment ago: continue it with that process.
    if (options.sameFingerprint === 'continue' && store.getRun(id) !== undefined) return { runId: id, continued: true };
    throw error;
  }
}

/** One unit of work: sample `sampleIndex` of a task, written by the orchestrator or (`template`) the library's template at that position. */
interface Sample {
  task: Task;
  sampleIndex: number;
  /** What the episode records as its orchestrator (the resume key). */
  ref: OrchestratorRef;
  /** Position in the template library, for a template episode. */
  template?: number;
}

/**
 * Executes the template at `position` for a task, as `bon` executes a fixed plan: seed
 * derive(seed, `<task>#template:<name>`), orchestrator `template` with the template's name as
 * checkpoint; its writing tokens (the simulator's decompositions bill some) are the episode's
 * orchestrator tokens.
 */
async function collectTemplate(
  options: CollectOptions,
  library: PlanTemplateLibrary,
  position: number,
  signal: AbortSignal,
  meter: UsageMeter,
  runId: string,
  task: Task,
  sampleIndex: number,
  runSeed: number,
): Promise<Episode> {
  const { environment } = options;
  const template = (await library.plansFor(task))[position];
  if (template === undefined) throw new UserError(`template library lists ${library.names.length} templates but gave none at position ${position} for task ${task.id}`);
  const id = stableId('ep', runId, task.id, sampleIndex);
  const episode = await runEpisode({
    id,
    runId,
    task,
    planText: template.planText,
    seed: deriveSeed(runSeed, `${task.id}#template:${template.name}`),
    sampleIndex,
    orchestrator: { name: TEMPLATE_ORCHESTRATOR, checkpoint: template.name },
    meter: { meter, episodeId: id },
    blocks: environment.blocks,
    provider: environment.provider,
    ...(environment.retriever !== undefined && { retriever: environment.retriever }),
    grader: environment.grader,
    ...(options.tokenBudget !== undefined && { tokenBudget: options.tokenBudget }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    signal,
  });
  // No model call wrote it, so nothing is metered; the tally adds these tokens to the run's.
  return { ...episode, usage: { ...episode.usage, orchestrator: { ...template.orchestratorUsage } } };
}

async function collectOne(
  options: CollectOptions,
  orchestrator: Orchestrator,
  signal: AbortSignal,
  meter: UsageMeter,
  runId: string,
  task: Task,
  sampleIndex: number,
  runSeed: number,
): Promise<Episode> {
  const { environment } = options;
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
    blocks: environment.blocks,
    provider: environment.provider,
    ...(orchestrator.dom !== undefined && { dom: orchestrator.dom }),
    ...(environment.retriever !== undefined && { retriever: environment.retriever }),
    grader: environment.grader,
    ...(options.tokenBudget !== undefined && { tokenBudget: options.tokenBudget }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    signal,
  };
  const orchestratorAttribution = { episodeId: id, role: 'orchestrator' as const };
  let written;
  try {
    written = await orchestrator.writePlan(task, { sampleIndex, seed, signal });
    if (written.call) meter.record({ ...orchestratorAttribution, usage: written.call.usage, attempts: written.call.attempts, cached: written.call.cached });
  } catch (error) {
    // Stopped while writing the plan: nothing to keep, the job drops the sample.
    if (signal.aborted) throw error;
    meter.recordFailure(orchestratorAttribution, error);
    // The orchestrator's call failed after its retries: keep the failure as an episode, apart (and ungraded) when the server failed.
    const { grade, ...episode } = await runEpisode({ ...common, planText: '' });
    const reason = `orchestrator call failed: ${errorMessage(error)}`;
    if (isServerFailure(error)) return { ...episode, status: 'server_error', reason, diagnostics: [] };
    return { ...episode, ...(grade !== undefined && { grade }), status: 'runtime_error', reason, diagnostics: [] };
  }
  return runEpisode({
    ...common,
    planText: written.text,
    ...(written.call !== undefined && { orchestratorCall: written.call }),
    ...(written.cutOff !== undefined && { planCutOff: written.cutOff }),
  });
}
