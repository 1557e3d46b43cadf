import type { Episode, LlmCallRecord } from '../core/index.js';

/**
 * An episode with what legitimately differs between two runs of the same seed blanked out:
 * ids, clocks, and (with `transport`) how many HTTP attempts a call took and why they failed.
 * Two runs that should be the same compare equal after this.
 */
export function comparableEpisode(episode: Episode, options: { transport?: boolean } = {}) {
  const call = ({ attemptErrors, ...record }: LlmCallRecord): LlmCallRecord => ({
    ...record,
    latencyMs: 0,
    ...(options.transport ? { attempts: 1, cached: false } : attemptErrors !== undefined && { attemptErrors }),
  });
  return {
    ...episode,
    id: '',
    runId: '',
    createdAt: '',
    wallTimeMs: 0,
    orchestratorCall: episode.orchestratorCall && call(episode.orchestratorCall),
    nodes: episode.nodes.map((node) => ({ ...node, startedAfterMs: 0, latencyMs: 0, calls: node.calls.map(call) })),
  };
}
