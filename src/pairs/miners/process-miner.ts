import { consensusOf, PROCESS_SIGNALS, type ArtifactSignals, type ProcessSignal, type ProcessSignalsConfig } from '../process-signals.js';
import { roundForEvidence, type MinedPair, type PairMiner } from './pair-miner.js';

/** Signal values of one episode, consensus included. */
type SignalValues = Partial<Record<(typeof PROCESS_SIGNALS)[number], number>>;

/**
 * `process` (label-free): compares two episodes of the same task on what their intermediate
 * artifacts show (see `ProcessSignalsConfigSchema`). A valid plan beats an invalid one
 * (`validity`). Two valid plans are compared on every enabled signal both have: each signal
 * whose values differ by at least its threshold is one vote, mined as its own pair, so that each
 * signal's reliability can be estimated. Votes over the same two plans are then merged like any
 * source's pairs (the majority direction wins, an even split is dropped). No gold answer is read.
 * Evidence: `{ signal, winnerValue, loserValue }`, or `{ signal: 'validity', winnerStatus, loserStatus }`.
 */
export function createProcessMiner(config: ProcessSignalsConfig): PairMiner {
  const enabled = PROCESS_SIGNALS.filter((name) => config[name].enabled);
  return {
    source: 'process',
    skipReason: () => undefined,
    mine(group) {
      const consensus = consensusOf(group.episodes.map((episode) => episode.signals));
      const values = group.episodes.map((episode, index) => signalValues(episode.signals, consensus[index]));
      const pairs: MinedPair[] = [];
      for (let i = 0; i < group.episodes.length; i++) {
        for (let j = i + 1; j < group.episodes.length; j++) {
          const first = group.episodes[i]!;
          const second = group.episodes[j]!;
          if (first.signals.valid !== second.signals.valid) {
            if (!config.validity.enabled) continue;
            const [winner, loser] = first.signals.valid ? [first, second] : [second, first];
            pairs.push({ winner, loser, strength: 1, evidence: { signal: 'validity' satisfies ProcessSignal, winnerStatus: winner.status, loserStatus: loser.status } });
            continue;
          }
          if (!first.signals.valid) continue;
          for (const name of enabled) {
            const a = values[i]![name];
            const b = values[j]![name];
            if (a === undefined || b === undefined) continue;
            const gap = Math.abs(a - b);
            if (gap < config[name].threshold - 1e-9) continue;
            const [winner, loser, winnerValue, loserValue] = a > b ? [first, second, a, b] : [second, first, b, a];
            pairs.push({
              winner,
              loser,
              strength: gap,
              ...(config.marginScale > 0 && { margin: roundForEvidence(config.marginScale * gap) }),
              evidence: { signal: name, winnerValue: roundForEvidence(winnerValue), loserValue: roundForEvidence(loserValue) },
            });
          }
        }
      }
      return pairs;
    },
  };
}

function signalValues(signals: ArtifactSignals, consensus: number | undefined): SignalValues {
  const values: SignalValues = {};
  if (consensus !== undefined) values.consensus = consensus;
  if (signals.grounding !== undefined) values.grounding = signals.grounding;
  if (signals.agreement !== undefined) values.agreement = signals.agreement;
  if (signals.consistency !== undefined) values.consistency = signals.consistency;
  if (signals.health !== undefined) values.health = signals.health;
  return values;
}
