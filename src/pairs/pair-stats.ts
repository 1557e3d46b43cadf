import type { PairFilter, Store } from '../store/index.js';

/** Sources whose rule reads the outcome itself; agreement with outcome says nothing about them. */
const OUTCOME_SOURCES: ReadonlySet<string> = new Set(['outcome', 'efficiency', 'correct-over-incorrect']);

export type SplitCounts = Record<'train' | 'validation' | 'test' | 'unassigned', number>;

/** How often a label-free source's winners also had the better outcome, on pairs whose two episodes were graded. */
export interface OutcomeAgreement {
  pairs: number;
  /** Pairs whose two episodes were both graded (the tasks where outcomes exist). */
  graded: number;
  /** Fraction of graded pairs whose winner's outcome is at least as good as the loser's; null when none were graded. */
  atLeastAsGood: number | null;
  /** Graded pairs whose outcomes differ. */
  differing: number;
  /** Fraction of differing pairs whose winner was the correct one; null when none differ. */
  strictlyBetter: number | null;
}

export interface PairStats {
  pairs: number;
  bySplit: SplitCounts;
  bySource: Record<string, { pairs: number; bySplit: SplitCounts }>;
  /**
   * For every label-free source (not `outcome`/`efficiency`): agreement with outcome. Reported
   * so the signal in label-free pairs can be judged; never used to filter them.
   */
  agreementWithOutcome: Record<string, OutcomeAgreement>;
  /** Datasets in the store: id, how they were made, when. */
  datasets: { id: string; kind: string; createdAt: string }[];
}

/**
 * Counts per source and split, and each label-free source's agreement with outcome, computed in
 * SQL from the episodes the pairs came from (`orchrm pairs stats`).
 * @example pairStats(store, { datasetId }).agreementWithOutcome.process?.strictlyBetter // 0.71
 */
export function pairStats(store: Store, filter: PairFilter = {}): PairStats {
  const stats: PairStats = { pairs: 0, bySplit: emptySplits(), bySource: {}, agreementWithOutcome: {}, datasets: [] };
  const agreement = new Map<string, { pairs: number; graded: number; atLeastAsGood: number; differing: number; strictlyBetter: number }>();
  for (const group of store.summarizePairs(filter)) {
    const split = group.split ?? 'unassigned';
    stats.pairs += group.pairs;
    stats.bySplit[split] += group.pairs;
    const source = (stats.bySource[group.source] ??= { pairs: 0, bySplit: emptySplits() });
    source.pairs += group.pairs;
    source.bySplit[split] += group.pairs;
    if (OUTCOME_SOURCES.has(group.source)) continue;
    const sums = agreement.get(group.source) ?? { pairs: 0, graded: 0, atLeastAsGood: 0, differing: 0, strictlyBetter: 0 };
    sums.pairs += group.pairs;
    sums.graded += group.graded;
    sums.atLeastAsGood += group.atLeastAsGood;
    sums.differing += group.differing;
    sums.strictlyBetter += group.strictlyBetter;
    agreement.set(group.source, sums);
  }
  for (const [source, sums] of agreement) {
    stats.agreementWithOutcome[source] = {
      pairs: sums.pairs,
      graded: sums.graded,
      atLeastAsGood: sums.graded === 0 ? null : round(sums.atLeastAsGood / sums.graded),
      differing: sums.differing,
      strictlyBetter: sums.differing === 0 ? null : round(sums.strictlyBetter / sums.differing),
    };
  }
  stats.datasets = store
    .listPairDatasets()
    .filter((dataset) => filter.datasetId === undefined || dataset.id === filter.datasetId)
    .map(({ id, kind, createdAt }) => ({ id, kind, createdAt }));
  return stats;
}

function emptySplits(): SplitCounts {
  return { train: 0, validation: 0, test: 0, unassigned: 0 };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
