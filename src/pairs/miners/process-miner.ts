import type { ProcessRubric } from '../process-rubric.js';
import { forEachPair, roundForEvidence, type MinedPair, type PairMiner } from './pair-miner.js';

/**
 * `process` (label-free): for two episodes of the same task, the one whose intermediate
 * artifacts score higher under the process rubric (`scoreProcess`) wins, when the scores differ
 * by at least `rubric.threshold`. No gold answer is read.
 * Evidence: `{ winnerScore, loserScore, gap, threshold, winnerTerms, loserTerms }`; the rubric
 * weights are recorded once with the dataset.
 */
export function createProcessMiner(rubric: ProcessRubric): PairMiner {
  return {
    source: 'process',
    skipReason: () => undefined,
    mine(group) {
      const pairs: MinedPair[] = [];
      forEachPair(group.episodes, (first, second) => {
        const gap = Math.abs(first.process.score - second.process.score);
        if (gap < rubric.threshold) return;
        const [winner, loser] = first.process.score > second.process.score ? [first, second] : [second, first];
        pairs.push({
          winner,
          loser,
          strength: gap,
          ...(rubric.marginScale > 0 && { margin: roundForEvidence(rubric.marginScale * gap) }),
          evidence: {
            winnerScore: roundForEvidence(winner.process.score),
            loserScore: roundForEvidence(loser.process.score),
            gap: roundForEvidence(gap),
            threshold: rubric.threshold,
            winnerTerms: roundTerms(winner.process.terms),
            loserTerms: roundTerms(loser.process.terms),
          },
        });
      });
      return pairs;
    },
  };
}

function roundTerms(terms: Record<string, number | undefined>): Record<string, number> {
  const rounded: Record<string, number> = {};
  for (const [term, value] of Object.entries(terms)) if (value !== undefined) rounded[term] = roundForEvidence(value);
  return rounded;
}
