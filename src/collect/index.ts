export { callFailure } from './call-failure.js';
export { collectEpisodes, runsTemplates, type CollectOptions, type CollectResult, type CollectTemplates } from './collect-episodes.js';
export type { CollectEvent, CollectProgress } from './collect-events.js';
export { CollectStoppedError, type CollectStopReason } from './collect-stopped-error.js';
export { CollectTally, DEFAULT_MAX_SERVER_FAILURE_SHARE, TEMPLATE_ORCHESTRATOR, type CollectSummary, type FailureCount } from './collect-summary.js';
export { latestRunWithFingerprint } from './resume-run.js';
