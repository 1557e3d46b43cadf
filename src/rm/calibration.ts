import { sigmoid } from '../core/index.js';

/**
 * Platt scaling of a reward score into a success probability: P(correct | task, plan) =
 * sigmoid(slope * score + intercept). A Bradley-Terry score only orders plans; the cost-aware
 * objectives of Best-of-N need an expected accuracy to trade against tokens, so two numbers are
 * fitted on graded episodes of the train split (Platt 1999, "Probabilistic outputs for support
 * vector machines": two parameters cannot overfit the way the head could).
 */
export interface PlattCalibration {
  slope: number;
  intercept: number;
}

/** Most Newton steps; the problem is two-dimensional and convex, so a handful suffice. */
const MAX_NEWTON_STEPS = 100;

/**
 * Fits Platt's two parameters by Newton's method with step halving on the log loss, with
 * Platt's smoothed targets ((N+ + 1) / (N+ + 2) for a success, 1 / (N- + 2) for a failure) so
 * that separable data gives a finite slope. Throws a RangeError on empty or mismatched input.
 *
 * @example
 * const calibration = fitPlatt([2, 1, -1, -2], [true, true, false, false]);
 * calibratedProbability(calibration, 2) // above 0.5
 */
export function fitPlatt(scores: ArrayLike<number>, outcomes: ArrayLike<boolean>): PlattCalibration {
  const count = scores.length;
  if (count === 0 || outcomes.length !== count) throw new RangeError(`fitPlatt needs as many outcomes as scores, and at least one (got ${count} scores, ${outcomes.length} outcomes)`);
  let positives = 0;
  for (let index = 0; index < count; index++) if (outcomes[index]) positives++;
  const negatives = count - positives;
  const high = (positives + 1) / (positives + 2);
  const low = 1 / (negatives + 2);
  const target = (index: number) => (outcomes[index] ? high : low);
  const loss = (slope: number, intercept: number) => {
    let total = 0;
    for (let index = 0; index < count; index++) {
      const z = slope * scores[index]! + intercept;
      // log(1 + e^z) - t z, written to stay finite for large |z|.
      total += (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - target(index) * z;
    }
    return total;
  };
  let slope = 0;
  let intercept = Math.log((positives + 1) / (negatives + 1));
  let current = loss(slope, intercept);
  for (let step = 0; step < MAX_NEWTON_STEPS; step++) {
    let gradientSlope = 0;
    let gradientIntercept = 0;
    let hss = 1e-12;
    let hsi = 0;
    let hii = 1e-12;
    for (let index = 0; index < count; index++) {
      const score = scores[index]!;
      const probability = sigmoid(slope * score + intercept);
      const residual = probability - target(index);
      const curvature = probability * (1 - probability);
      gradientSlope += residual * score;
      gradientIntercept += residual;
      hss += curvature * score * score;
      hsi += curvature * score;
      hii += curvature;
    }
    if (Math.abs(gradientSlope) + Math.abs(gradientIntercept) < 1e-10 * count) break;
    const determinant = hss * hii - hsi * hsi;
    if (!(determinant > 0)) break;
    const stepSlope = (hii * gradientSlope - hsi * gradientIntercept) / determinant;
    const stepIntercept = (hss * gradientIntercept - hsi * gradientSlope) / determinant;
    let scale = 1;
    let next = loss(slope - stepSlope, intercept - stepIntercept);
    while (next > current && scale > 1e-8) {
      scale /= 2;
      next = loss(slope - scale * stepSlope, intercept - scale * stepIntercept);
    }
    if (next > current) break;
    slope -= scale * stepSlope;
    intercept -= scale * stepIntercept;
    const improvement = current - next;
    current = next;
    if (improvement < 1e-12 * count) break;
  }
  return { slope, intercept };
}

/** The calibrated success probability of a plan of reward score `score`. */
export function calibratedProbability(calibration: PlattCalibration, score: number): number {
  return sigmoid(calibration.slope * score + calibration.intercept);
}
