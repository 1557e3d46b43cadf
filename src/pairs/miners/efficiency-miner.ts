import type { EfficiencyMinerConfig } from '../mining-config.js';
import { forEachPair, noGradesReason, roundForEvidence, type MinedPair, type PairMiner } from './pair-miner.js';

/**
 * `efficiency` (cost-aware): of two episodes of the same task both graded correct, the one that
 * spent clearly fewer execution tokens wins: the loser spent at least `minTokenRatio` times as
 * many. A winner that spent nothing (a direct answer) counts as one token.
 * Evidence: `{ winnerExecutionTokens, loserExecutionTokens, tokenRatio, minTokenRatio }`.
 */
export function createEfficiencyMiner(config: EfficiencyMinerConfig): PairMiner {
  return {
    source: 'efficiency',
    skipReason: noGradesReason,
    mine(group) {
      const correct = group.episodes.filter((episode) => episode.correct === true);
      const pairs: MinedPair[] = [];
      forEachPair(correct, (first, second) => {
        const [winner, loser] = first.executionTokens <= second.executionTokens ? [first, second] : [second, first];
        const tokenRatio = loser.executionTokens / Math.max(1, winner.executionTokens);
        if (tokenRatio < config.minTokenRatio) return;
        pairs.push({
          winner,
          loser,
          // Log scale: a 4x saving is twice as clear as a 2x one.
          strength: Math.log(tokenRatio),
          evidence: {
            winnerExecutionTokens: winner.executionTokens,
            loserExecutionTokens: loser.executionTokens,
            tokenRatio: roundForEvidence(tokenRatio),
            minTokenRatio: config.minTokenRatio,
          },
        });
      });
      return pairs;
    },
  };
}
