import type { Episode, EpisodeStatus, LlmCallRecord, Usage, UsageByRole } from '../core/index.js';
import type { UsageMeter } from '../llm/index.js';
import { callFailure } from './call-failure.js';

/** How often one error ended episodes of the run. */
export interface FailureCount {
  /** The call's error, as stored with it. */
  message: string;
  episodes: number;
}

/** What a collection run holds, as printed by `orchrm collect`. A resumed run's summary covers the whole run. */
export interface CollectSummary {
  runId: string;
  /** Episodes the run holds: those committed before this invocation and those it collected. */
  episodes: number;
  /** Of `episodes`, how many an earlier invocation of the run had committed (not redone). */
  skipped: number;
  /** Samples the run is made of (tasks times plans per task); `episodes` falls short of it when stopped. */
  total: number;
  byStatus: Partial<Record<EpisodeStatus, number>>;
  /** Episodes with a grade. */
  graded: number;
  correct: number;
  /** correct / graded, or null when nothing was graded. */
  accuracy: number | null;
  /** Every token of the run, cached responses included at their original cost. */
  tokens: UsageByRole;
  /** Mean total tokens per episode, all roles. */
  meanTokensPerEpisode: number;
  /** Model calls made, failed calls, attempts beyond the first, and calls served from the cache. */
  calls: { total: number; failed: number; retries: number; cached: number };
  /** Model-call errors that ended episodes, most frequent first (at most five). */
  failures: FailureCount[];
  /** Wall time of this invocation. @unit milliseconds */
  wallTimeMs: number;
  /**
   * The template episodes of the run (`CollectOptions.templates`), included in every count
   * above: on how many tasks the templates ran, how many episodes, and their tokens by role
   * (with `tokens`, the share of the collection budget the templates took).
   */
  templates?: { tasks: number; episodes: number; tokens: UsageByRole };
}

/** The orchestrator a template episode records: `template`, its checkpoint the template's name (as `bon` records its fixed plans). */
export const TEMPLATE_ORCHESTRATOR = 'template';

const MAX_FAILURES_LISTED = 5;

/**
 * The share of a run's episodes that server failures (`server_error`) may end before the run
 * counts as failed (`orchrm collect` exits 1 and prints the command that redoes them). Each of
 * them is missing from the data until a resume on a healthy server redoes it; beyond a few in a
 * hundred, the server needs attention before the data is used.
 */
export const DEFAULT_MAX_SERVER_FAILURE_SHARE = 0.02;

/** Counts episodes as they finish, so a long run never holds them all in memory. */
export class CollectTally {
  private readonly byStatus: Partial<Record<EpisodeStatus, number>> = {};
  private readonly failureCounts = new Map<string, number>();
  private readonly earlierTokens: UsageByRole = { orchestrator: zero(), execution: zero(), verification: zero() };
  private readonly earlierCalls = { total: 0, failed: 0, retries: 0, cached: 0 };
  private episodes = 0;
  private skipped = 0;
  private graded = 0;
  private correct = 0;
  /** Template writing tokens of this invocation: no model call wrote them, so the meter has none. */
  private readonly unmeteredOrchestrator = zero();
  private readonly templateTally = { episodes: 0, tokens: { orchestrator: zero(), execution: zero(), verification: zero() } };

  /** `templateTasks`: tasks on which the templates run, when the run has templates. */
  constructor(
    private readonly runId: string,
    private readonly meter: UsageMeter,
    private readonly total: number,
    private readonly templateTasks?: number,
  ) {}

  /** An episode this invocation collected (its tokens and calls are in the meter, but a template's writing). */
  add(episode: Episode): void {
    if (episode.orchestrator.name === TEMPLATE_ORCHESTRATOR) addUsage(this.unmeteredOrchestrator, episode.usage.orchestrator);
    this.count(episode);
  }

  /** An episode an earlier invocation committed; its tokens and calls are read from its records. */
  addCommitted(episode: Episode): void {
    this.skipped++;
    this.count(episode);
    for (const role of ['orchestrator', 'execution', 'verification'] as const) addUsage(this.earlierTokens[role], episode.usage[role]);
    const calls: LlmCallRecord[] = [...(episode.orchestratorCall ? [episode.orchestratorCall] : []), ...episode.nodes.flatMap((node) => node.calls)];
    for (const call of calls) {
      this.earlierCalls.total++;
      if (call.error !== undefined) this.earlierCalls.failed++;
      this.earlierCalls.retries += call.attempts - 1;
      if (call.cached) this.earlierCalls.cached++;
    }
  }

  /** Episodes the run holds so far. */
  get done(): number {
    return this.episodes;
  }

  /** Episodes so far that a model-call error ended. */
  get failed(): number {
    let failed = 0;
    for (const count of this.failureCounts.values()) failed += count;
    return failed;
  }

  summary(wallTimeMs: number): CollectSummary {
    const now = this.meter.byRole();
    const tokens: UsageByRole = {
      orchestrator: sum(sum(now.orchestrator, this.earlierTokens.orchestrator), this.unmeteredOrchestrator),
      execution: sum(now.execution, this.earlierTokens.execution),
      verification: sum(now.verification, this.earlierTokens.verification),
    };
    const totalTokens = tokens.orchestrator.totalTokens + tokens.execution.totalTokens + tokens.verification.totalTokens;
    return {
      runId: this.runId,
      episodes: this.episodes,
      skipped: this.skipped,
      total: this.total,
      byStatus: { ...this.byStatus },
      graded: this.graded,
      correct: this.correct,
      accuracy: this.graded > 0 ? this.correct / this.graded : null,
      tokens,
      meanTokensPerEpisode: this.episodes > 0 ? totalTokens / this.episodes : 0,
      calls: {
        total: this.meter.calls + this.earlierCalls.total,
        failed: this.meter.failedCalls + this.earlierCalls.failed,
        retries: this.meter.retries + this.earlierCalls.retries,
        cached: this.meter.cachedCalls + this.earlierCalls.cached,
      },
      failures: [...this.failureCounts]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, MAX_FAILURES_LISTED)
        .map(([message, episodes]) => ({ message, episodes })),
      wallTimeMs,
      ...(this.templateTasks !== undefined && {
        templates: {
          tasks: this.templateTasks,
          episodes: this.templateTally.episodes,
          tokens: { orchestrator: { ...this.templateTally.tokens.orchestrator }, execution: { ...this.templateTally.tokens.execution }, verification: { ...this.templateTally.tokens.verification } },
        },
      }),
    };
  }

  private count(episode: Episode): void {
    this.episodes++;
    if (episode.orchestrator.name === TEMPLATE_ORCHESTRATOR) {
      this.templateTally.episodes++;
      for (const role of ['orchestrator', 'execution', 'verification'] as const) addUsage(this.templateTally.tokens[role], episode.usage[role]);
    }
    this.byStatus[episode.status] = (this.byStatus[episode.status] ?? 0) + 1;
    if (episode.grade) {
      this.graded++;
      if (episode.grade.correct) this.correct++;
    }
    const failure = callFailure(episode);
    if (failure !== undefined) this.failureCounts.set(failure, (this.failureCounts.get(failure) ?? 0) + 1);
  }
}

function zero(): Usage {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

function addUsage(target: Usage, usage: Usage): void {
  target.promptTokens += usage.promptTokens;
  target.completionTokens += usage.completionTokens;
  target.totalTokens += usage.totalTokens;
}

function sum(a: Usage, b: Usage): Usage {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, totalTokens: a.totalTokens + b.totalTokens };
}
