import { BudgetExceededError, TimeoutError, type Usage } from '../core/index.js';

/**
 * The per-episode token budget and deadline. One instance is shared by every node of an
 * episode; blocks reach it through their context's `chat`, which checks before and charges
 * after each call. The abort signal fires on timeout, on budget exhaustion, or when the
 * caller's own signal aborts, so calls in flight on parallel branches stop too.
 */
export class EpisodeLimits {
  private spentTokens = 0;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;
  private failure: Error | undefined;
  private firstServerFailure: string | undefined;
  private readonly parentSignal: AbortSignal | undefined;
  /**
   * The episode's signal follows the caller's through `AbortSignal.any` rather than a listener:
   * a collection passes one signal to every episode in flight, and one listener each (32 with
   * vLLM's usual concurrency) trips Node's MaxListenersExceededWarning.
   */
  readonly signal: AbortSignal;

  constructor(
    readonly tokenBudget: number | undefined,
    readonly timeoutMs: number | undefined,
    parentSignal?: AbortSignal,
  ) {
    if (timeoutMs !== undefined) {
      this.timer = setTimeout(() => this.fail(new TimeoutError(timeoutMs, 'episode')), timeoutMs);
      this.timer.unref();
    }
    this.parentSignal = parentSignal;
    this.signal = parentSignal ? AbortSignal.any([this.controller.signal, parentSignal]) : this.controller.signal;
  }

  get spent(): number {
    return this.spentTokens;
  }

  /** The error that stopped the episode, if any. */
  get stoppedBy(): Error | undefined {
    if (this.failure === undefined && this.parentSignal?.aborted) this.fail(new Error('episode aborted by caller'));
    return this.failure;
  }

  /** Throws the stopping error when the episode may not make another call. */
  ensureCanCall(): void {
    if (this.stoppedBy) throw this.stoppedBy;
    if (this.tokenBudget !== undefined && this.spentTokens >= this.tokenBudget) {
      this.fail(new BudgetExceededError(this.tokenBudget, this.spentTokens));
      throw this.failure;
    }
  }

  /** Adds a finished call's tokens; a call that crosses the budget stops the episode. */
  charge(usage: Usage): void {
    this.spentTokens += usage.totalTokens;
    if (this.tokenBudget !== undefined && this.spentTokens > this.tokenBudget) {
      this.fail(new BudgetExceededError(this.tokenBudget, this.spentTokens));
    }
  }

  /**
   * The first model call of the episode that failed after its retries because of the server
   * (`isServerFailure`), as its message; undefined when none did.
   */
  get serverFailure(): string | undefined {
    return this.firstServerFailure;
  }

  /** Notes a call that failed because of the server; the episode then ends as `server_error`. */
  noteServerFailure(message: string): void {
    this.firstServerFailure ??= message;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    this.controller.abort(error);
  }
}
