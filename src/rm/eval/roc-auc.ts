/** The Mann-Whitney U statistic of one group: how many (positive, negative) pairs the scores order right. */
interface MannWhitney {
  /** Pairs with the positive scored higher, plus half of the tied pairs. */
  u: number;
  /** positives x negatives. */
  comparisons: number;
}

/**
 * Area under the ROC curve of `scores` for telling `labels` true from false, computed as the
 * Mann-Whitney U statistic with average ranks: the probability that a random positive scores
 * higher than a random negative, a tie counting one half. Undefined when either class is
 * empty (the AUC is not defined there, and 0.5 would be a made-up number).
 *
 * @example
 * rocAuc([0.9, 0.5, 0.5, 0.1], [true, true, false, false]) // 0.875
 */
export function rocAuc(scores: ArrayLike<number>, labels: ArrayLike<boolean>): number | undefined {
  const { u, comparisons } = mannWhitney(scores, labels, rangeIndices(scores.length));
  return comparisons === 0 ? undefined : u / comparisons;
}

/**
 * AUC counting only (positive, negative) pairs in the same group, e.g. two plans for the same
 * task. A pooled AUC rewards a model for knowing which *tasks* are hard; this one measures
 * only what selecting among plans for one task needs. Undefined when no group has both classes.
 *
 * @example
 * groupedAuc([1, 0, 5, 9], [true, false, true, false], ['a', 'a', 'b', 'b']) // 0.5 (a right, b wrong)
 */
export function groupedAuc(scores: ArrayLike<number>, labels: ArrayLike<boolean>, groups: readonly string[]): number | undefined {
  const members = new Map<string, number[]>();
  for (let index = 0; index < groups.length; index++) {
    const group = groups[index] as string;
    let list = members.get(group);
    if (list === undefined) members.set(group, (list = []));
    list.push(index);
  }
  let u = 0;
  let comparisons = 0;
  for (const indices of members.values()) {
    const result = mannWhitney(scores, labels, indices);
    u += result.u;
    comparisons += result.comparisons;
  }
  return comparisons === 0 ? undefined : u / comparisons;
}

function rangeIndices(length: number): number[] {
  return Array.from({ length }, (_, index) => index);
}

/** U from the rank sum of the positives, with tied scores sharing their average rank. */
function mannWhitney(scores: ArrayLike<number>, labels: ArrayLike<boolean>, indices: number[]): MannWhitney {
  const order = indices.slice().sort((a, b) => (scores[a] as number) - (scores[b] as number));
  let positives = 0;
  let positiveRankSum = 0;
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && scores[order[end] as number] === scores[order[start] as number]) end++;
    // Ranks are 1-based: the run [start, end) shares the mean of ranks start+1 .. end.
    const averageRank = (start + 1 + end) / 2;
    for (let position = start; position < end; position++) {
      if (labels[order[position] as number]) {
        positives++;
        positiveRankSum += averageRank;
      }
    }
    start = end;
  }
  const negatives = indices.length - positives;
  return { u: positiveRankSum - (positives * (positives + 1)) / 2, comparisons: positives * negatives };
}
