/** One sample's clipped surrogate term and d(term)/d(log π_θ). */
export interface SurrogateTerm {
  /** min(ρA, clip(ρ, 1-ε, 1+ε)A). */
  value: number;
  /** Derivative with respect to log π_θ(a): ρA where the unclipped branch is the minimum, else 0. */
  gradientScale: number;
  /** Whether the clipped branch is the (strictly smaller) minimum, so the sample passes no gradient. */
  clipped: boolean;
}

/**
 * PPO's clipped surrogate for one sample (Schulman et al. 2017, eq. 7), as GRPO uses it:
 * ratio ρ = π_θ(a) / π_old(a) = exp(logProb - oldLogProb). Where clipping binds (ρ > 1+ε with
 * A > 0, or ρ < 1-ε with A < 0) the term is constant in θ and passes no gradient; elsewhere
 * d(ρA)/d log π_θ = ρA.
 *
 * @example
 * clippedSurrogate(Math.log(1.5), 0, 2, 0.2) // { value: 2.4, gradientScale: 0, clipped: true }
 */
export function clippedSurrogate(logProb: number, oldLogProb: number, advantage: number, clipEpsilon: number): SurrogateTerm {
  const ratio = Math.exp(logProb - oldLogProb);
  const clippedRatio = Math.min(Math.max(ratio, 1 - clipEpsilon), 1 + clipEpsilon);
  const unclipped = ratio * advantage;
  const bounded = clippedRatio * advantage;
  if (bounded < unclipped) return { value: bounded, gradientScale: 0, clipped: true };
  return { value: unclipped, gradientScale: unclipped, clipped: false };
}

/** One sample's KL estimate and d(estimate)/d(log π_θ). */
export interface KlTerm {
  value: number;
  gradientScale: number;
}

/**
 * Schulman's k3 estimator of KL(π_θ ‖ π_ref) from one sample a ~ π_θ ("Approximating KL
 * divergence", 2020), the estimator the GRPO paper (DeepSeekMath, eq. 4) uses:
 * k3 = r - 1 - log r with r = π_ref(a) / π_θ(a). Unbiased for samples from π_θ, always ≥ 0,
 * lower variance than -log r. d k3 / d log π_θ = 1 - r. Here samples come from the sampling
 * policy, which equals π_θ on the first inner epoch and is close to it afterwards.
 *
 * @example
 * klK3(Math.log(0.5), Math.log(0.25)) // { value: 0.5 - 1 + Math.log(2), gradientScale: 0.5 }
 */
export function klK3(logProb: number, referenceLogProb: number): KlTerm {
  const logRatio = referenceLogProb - logProb;
  const ratio = Math.exp(logRatio);
  return { value: ratio - 1 - logRatio, gradientScale: 1 - ratio };
}
