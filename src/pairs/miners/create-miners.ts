import type { MinedSource, PairMiningConfig } from '../mining-config.js';
import { createCheckpointMiner } from './checkpoint-miner.js';
import { createEfficiencyMiner } from './efficiency-miner.js';
import { createOutcomeMiner } from './outcome-miner.js';
import type { PairMiner } from './pair-miner.js';
import { createProcessMiner } from './process-miner.js';

/** The miners of the configured sources, in the order the config lists them. */
export function createMiners(config: PairMiningConfig): PairMiner[] {
  const factories: Record<MinedSource, () => PairMiner> = {
    outcome: createOutcomeMiner,
    checkpoint: () => createCheckpointMiner(config.checkpoint),
    process: () => createProcessMiner(config.process),
    efficiency: () => createEfficiencyMiner(config.efficiency),
  };
  return [...new Set(config.sources)].map((source) => factories[source]());
}
