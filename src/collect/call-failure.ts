import type { Episode } from '../core/index.js';

const ORCHESTRATOR_FAILED = 'orchestrator call failed: ';
const GRADING_FAILED = 'grading failed: ';

/**
 * The model-call error that ended an episode, or undefined when none did: the orchestrator's
 * call, else the first node call that failed after its retries, else the judge's. Episodes
 * stopped by their own limits (timeout, token budget) are not call failures.
 */
export function callFailure(episode: Episode): string | undefined {
  if (episode.status !== 'runtime_error' && episode.status !== 'server_error') return undefined;
  if (episode.reason?.startsWith(ORCHESTRATOR_FAILED)) return episode.reason.slice(ORCHESTRATOR_FAILED.length);
  for (const node of episode.nodes) {
    const failed = node.calls.find((call) => call.error !== undefined);
    if (failed?.error !== undefined) return failed.error;
  }
  const grading = episode.reason?.indexOf(GRADING_FAILED) ?? -1;
  return grading === -1 ? undefined : episode.reason!.slice(grading + GRADING_FAILED.length);
}
