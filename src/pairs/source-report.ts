/** What happened to one source's pairs on the way from the miner to the dataset. */
export interface SourceReport {
  /** Pairs the miner proposed. */
  mined: number;
  /** Pairs in the dataset. */
  kept: number;
  tasksWithPairs: number;
  /** Tasks the miner could not use (see `skipReasons`). */
  tasksSkipped: number;
  /** Distinct reasons tasks were skipped, with how many tasks each. */
  skipReasons: Record<string, number>;
  /** Set when the miner produced nothing because every task was skipped (e.g. no grades: label-free mode). */
  skipped?: string;
  dropped: {
    /** Same canonical plan on both sides: never a pair. */
    sameCanonicalPlan: number;
    /** As many episode pairs said A over B as B over A for the same two canonical plans. */
    ties: number;
    /** Further episode pairs for the same two canonical plans, merged into one pair. */
    duplicates: number;
    perTaskPerSource: number;
    perTask: number;
    perSource: number;
    /** Subsampled away by `balance.mode = 'count'`. */
    balance: number;
    /** Pairs of a unit whose estimated reliability is too close to chance (weight 0). */
    unreliable: number;
  };
}

export function emptySourceReport(): SourceReport {
  return {
    mined: 0,
    kept: 0,
    tasksWithPairs: 0,
    tasksSkipped: 0,
    skipReasons: {},
    dropped: { sameCanonicalPlan: 0, ties: 0, duplicates: 0, perTaskPerSource: 0, perTask: 0, perSource: 0, balance: 0, unreliable: 0 },
  };
}
