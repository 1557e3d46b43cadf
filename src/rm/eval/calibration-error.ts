/** One bin of a reliability diagram. */
export interface CalibrationBin {
  /** Lower edge of the bin (inclusive). */
  low: number;
  /** Upper edge (exclusive, except for the last bin, which includes 1). */
  high: number;
  /** Predictions that fell in the bin. */
  count: number;
  /** Mean predicted probability in the bin; 0 when empty. */
  meanConfidence: number;
  /** Fraction of those predictions that came true; 0 when empty. */
  accuracy: number;
}

export interface CalibrationReport {
  /** Expected calibration error: sum over bins of (count / N) * |accuracy - meanConfidence|. */
  ece: number;
  bins: CalibrationBin[];
}

/**
 * sigmoid(d) in the form e^d / (1 + e^d) for d < 0, which keeps full relative precision on the
 * small side. It differs from core's `sigmoid` in the last bit for about half of all negative
 * d, so it stays apart: every calibration figure reported so far was computed with it.
 */
function pairProbability(difference: number): number {
  if (difference >= 0) return 1 / (1 + Math.exp(-difference));
  const exp = Math.exp(difference);
  return exp / (1 + exp);
}

/**
 * Expected calibration error of the Bradley-Terry probability sigmoid(r_a - r_b) on pairs
 * (Guo et al. 2017, equal-width bins). A pair has no natural orientation, so each pair is
 * counted both ways: (p = sigmoid(r_w - r_l), came true) and (1 - p, did not). Bin i holds
 * probabilities in [i/bins, (i+1)/bins); the last bin includes 1. Without the mirroring, a
 * model that always says "the first plan wins" would look calibrated on winner-first data.
 *
 * @example
 * expectedCalibrationError([0], [0]).ece // 0: a tie predicts 0.5 and half the orientations come true
 */
export function expectedCalibrationError(
  winnerScores: ArrayLike<number>,
  loserScores: ArrayLike<number>,
  options: { bins?: number } = {},
): CalibrationReport {
  const { bins: binCount = 10 } = options;
  if (!Number.isInteger(binCount) || binCount < 1) throw new RangeError(`bins must be a positive integer, got ${binCount}`);
  const counts = new Float64Array(binCount);
  const confidenceSums = new Float64Array(binCount);
  const hits = new Float64Array(binCount);
  const add = (probability: number, cameTrue: boolean) => {
    const bin = Math.min(binCount - 1, Math.floor(probability * binCount));
    counts[bin]! += 1;
    confidenceSums[bin]! += probability;
    if (cameTrue) hits[bin]! += 1;
  };
  for (let index = 0; index < winnerScores.length; index++) {
    const probability = pairProbability((winnerScores[index] as number) - (loserScores[index] as number));
    add(probability, true);
    add(1 - probability, false);
  }
  const total = 2 * winnerScores.length;
  return binnedReport(counts, confidenceSums, hits, total);
}

/**
 * Expected calibration error of probabilities of single events (a plan's calibrated success
 * probability against whether its episode was correct), equal-width bins as
 * `expectedCalibrationError`: sum over bins of (count / N) * |accuracy - mean probability|.
 *
 * @example
 * probabilityCalibrationError([0.5, 0.5], [true, false]).ece // 0
 */
export function probabilityCalibrationError(probabilities: ArrayLike<number>, outcomes: ArrayLike<boolean>, options: { bins?: number } = {}): CalibrationReport {
  const { bins: binCount = 10 } = options;
  if (!Number.isInteger(binCount) || binCount < 1) throw new RangeError(`bins must be a positive integer, got ${binCount}`);
  if (probabilities.length !== outcomes.length) throw new RangeError(`${probabilities.length} probabilities but ${outcomes.length} outcomes`);
  const counts = new Float64Array(binCount);
  const confidenceSums = new Float64Array(binCount);
  const hits = new Float64Array(binCount);
  for (let index = 0; index < probabilities.length; index++) {
    const probability = probabilities[index] as number;
    const bin = Math.min(binCount - 1, Math.max(0, Math.floor(probability * binCount)));
    counts[bin]! += 1;
    confidenceSums[bin]! += probability;
    if (outcomes[index]) hits[bin]! += 1;
  }
  const total = probabilities.length;
  return binnedReport(counts, confidenceSums, hits, total);
}

/** The report of equal-width bins from each bin's event count, summed probability and hits: ECE = sum over bins of (count / total) * |accuracy - mean probability|. */
function binnedReport(counts: Float64Array, confidenceSums: Float64Array, hits: Float64Array, total: number): CalibrationReport {
  const binCount = counts.length;
  let ece = 0;
  const bins: CalibrationBin[] = [];
  for (let bin = 0; bin < binCount; bin++) {
    const count = counts[bin] as number;
    const meanConfidence = count === 0 ? 0 : (confidenceSums[bin] as number) / count;
    const accuracy = count === 0 ? 0 : (hits[bin] as number) / count;
    if (count > 0) ece += (count / total) * Math.abs(accuracy - meanConfidence);
    bins.push({ low: bin / binCount, high: (bin + 1) / binCount, count, meanConfidence, accuracy });
  }
  return { ece, bins };
}
