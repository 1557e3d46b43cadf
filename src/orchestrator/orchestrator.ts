import type { Dom, LlmCallRecord, OrchestratorRef, Task } from '../core/index.js';

export interface WritePlanOptions {
  /** Index of this plan among those sampled for the task. */
  sampleIndex: number;
  seed: number;
  signal?: AbortSignal;
}

export interface WrittenPlan {
  /** The raw text, exactly as written (kept in the episode whatever it holds). */
  text: string;
  /** The call that wrote it, when a model did. */
  call?: LlmCallRecord;
  /** Set when the reply ended at its token limit: which limit, and how to raise it (`tokenLimitNote`). */
  cutOff?: string;
}

/** Anything that writes plans for tasks: an LLM behind a provider, or the simulated policy. */
export interface Orchestrator {
  readonly ref: OrchestratorRef;
  /** Plan text format this orchestrator writes. */
  readonly format: 'json' | 'xml';
  /** DoM it was asked to respect, if any. */
  readonly dom: Dom | undefined;
  writePlan(task: Task, options: WritePlanOptions): Promise<WrittenPlan>;
}
