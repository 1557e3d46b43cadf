import { OrchrmError } from '../core/index.js';
import type { CollectSummary } from './collect-summary.js';

/** Why a collection stopped before its last episode. */
export type CollectStopReason = 'repeated-failure' | 'aborted';

/**
 * A collection stopped early: the same model-call error ended several episodes in a row (the
 * server is down, the key or model name is wrong), or the caller aborted it (Ctrl-C). Everything
 * committed before the stop stays in the store; the run can be resumed. Carries the summary of
 * what the run holds so far.
 */
export class CollectStoppedError extends OrchrmError {
  constructor(
    message: string,
    readonly reason: CollectStopReason,
    readonly runId: string,
    readonly summary: CollectSummary,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
