export { assignSplit, type SplitFractions } from './assign-split.js';
export { exportPairs, type ExportPairsOptions, type ExportPairsResult } from './export-pairs.js';
export { importPairs, type ImportPairsOptions, type ImportPairsSummary } from './import-pairs.js';
export { compareCheckpoints, type CheckpointOrder } from './miners/compare-checkpoints.js';
export { createCheckpointMiner } from './miners/checkpoint-miner.js';
export { createEfficiencyMiner } from './miners/efficiency-miner.js';
export { createMiners } from './miners/create-miners.js';
export { createOutcomeMiner } from './miners/outcome-miner.js';
export { createProcessMiner } from './miners/process-miner.js';
export type { MinedPair, PairMiner } from './miners/pair-miner.js';
export { minePairGroups, type MiningReport } from './mine-pair-groups.js';
export { minePairs, type MinePairsOptions, type MinePairsResult } from './mine-pairs.js';
export {
  CheckpointMinerConfigSchema,
  EfficiencyMinerConfigSchema,
  ReliabilityConfigSchema,
  type ReliabilityConfig,
  MinedSourceSchema,
  PairMiningConfigSchema,
  type CheckpointMinerConfig,
  type EfficiencyMinerConfig,
  type MinedSource,
  type PairMiningConfig,
  type PairMiningConfigInput,
} from './mining-config.js';
export { canonicalEpisodePlanText, createCanonicalKeyer, toMiningEpisode, type MiningEpisode, type TaskGroup } from './mining-episode.js';
export {
  LAYOUT_FILE_SUFFIX,
  layoutPathFor,
  PairExportLayoutSchema,
  readPairExportLayout,
  ScoringLayoutSchema,
  scoringLayout,
  type PairExportLayout,
  type ScoringLayout,
} from './pair-export-layout.js';
export {
  EXTENSION_SOURCE_NAMES,
  OpenRlhfKeysSchema,
  PairExportFormatSchema,
  PairExportFormSchema,
  PUBLISHED_SOURCE_NAMES,
  PublishedPairSchema,
  pairToRow,
  type ExportedMessage,
  type OpenRlhfKeys,
  type PairExportForm,
  type PairExportFormat,
  type PairRowOptions,
  type PublishedPair,
} from './pair-formats.js';
export { pairStats, type OutcomeAgreement, type PairStats, type SplitCounts } from './pair-stats.js';
export {
  consensusOf,
  PROCESS_SIGNALS,
  ProcessSignalsConfigSchema,
  readArtifactSignals,
  type ArtifactSignals,
  type ProcessSignal,
  type ProcessSignalsConfig,
  type ProcessSignalsConfigInput,
} from './process-signals.js';
export { ReliabilityTally, reliabilityUnit, reliabilityWeight, type ReliabilityMethod, type UnitReliability } from './source-reliability.js';
export type { SourceReport } from './source-report.js';
export { formatMiningReport, formatPairStats } from './format-pair-report.js';
export { trainingFlags } from './training-flags.js';
