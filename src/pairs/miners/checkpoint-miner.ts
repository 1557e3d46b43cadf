import type { CheckpointMinerConfig } from '../mining-config.js';
import type { MiningEpisode } from '../mining-episode.js';
import { compareCheckpoints } from './compare-checkpoints.js';
import { forEachPair, type MinedPair, type PairMiner } from './pair-miner.js';

/**
 * `checkpoint` (the paper's specialized-over-base): for two episodes of the same task whose plans
 * come from two checkpoints of the same orchestrator, the later checkpoint's plan wins (see
 * `compareCheckpoints`). In `outcome-at-least-as-good` mode a pair whose two episodes were graded
 * is kept only when the later one is at least as correct; ungraded pairs (label-free) are kept.
 * Evidence: `{ winnerCheckpoint, loserCheckpoint, winnerStep?, loserStep?, decidedBy, mode, winnerCorrect?, loserCorrect? }`.
 */
export function createCheckpointMiner(config: CheckpointMinerConfig): PairMiner {
  return {
    source: 'checkpoint',
    skipReason: () => undefined,
    mine(group) {
      const pairs: MinedPair[] = [];
      forEachPair(group.episodes, (first, second) => {
        const order = compareCheckpoints(first.orchestrator, second.orchestrator, config);
        if (order === undefined) return;
        const [winner, loser] = order.later === 'first' ? [first, second] : [second, first];
        if (config.mode === 'outcome-at-least-as-good' && winner.correct === false && loser.correct === true) return;
        pairs.push({ winner, loser, strength: 1, evidence: { ...sides(winner, loser), decidedBy: order.decidedBy, mode: config.mode } });
      });
      return pairs;
    },
  };
}

function sides(winner: MiningEpisode, loser: MiningEpisode): Record<string, unknown> {
  return {
    winnerCheckpoint: winner.orchestrator.checkpoint ?? null,
    loserCheckpoint: loser.orchestrator.checkpoint ?? null,
    ...(winner.orchestrator.step !== undefined && { winnerStep: winner.orchestrator.step }),
    ...(loser.orchestrator.step !== undefined && { loserStep: loser.orchestrator.step }),
    ...(winner.correct !== undefined && { winnerCorrect: winner.correct }),
    ...(loser.correct !== undefined && { loserCorrect: loser.correct }),
  };
}
