import type { MiningEpisode } from '../mining-episode.js';
import { forEachPair, noGradesReason, type MinedPair, type PairMiner } from './pair-miner.js';

/**
 * `outcome` (the paper's correct-over-incorrect): for two graded episodes of the same task, the
 * one graded correct beats the one graded incorrect. Failed episodes of a task with a gold answer
 * are graded incorrect by the executor, so a valid plan also beats one that never parsed.
 * Evidence: `{ winnerCorrect: true, loserCorrect: false, loserStatus }`.
 */
export function createOutcomeMiner(): PairMiner {
  return {
    source: 'outcome',
    skipReason: noGradesReason,
    mine(group) {
      const graded = group.episodes.filter((episode) => episode.correct !== undefined);
      const pairs: MinedPair[] = [];
      forEachPair(graded, (first, second) => {
        if (first.correct === second.correct) return;
        const [winner, loser] = first.correct === true ? [first, second] : [second, first];
        pairs.push({ winner, loser, strength: 1, evidence: evidence(winner, loser) });
      });
      return pairs;
    },
  };
}

function evidence(winner: MiningEpisode, loser: MiningEpisode): Record<string, unknown> {
  return { winnerCorrect: winner.correct, loserCorrect: loser.correct, winnerStatus: winner.status, loserStatus: loser.status };
}
