import { deriveSeed, InvalidInputError, Rng, zodIssues } from '../../core/index.js';
import { FaultConfigSchema, type FaultConfig, type FaultConfigInput, type FaultKind } from './fault-config.js';

/** z of the standard normal's 99th percentile: p99 = median * exp(sigma * Z_99). */
const Z_99 = 2.3263478740408408;

/** Latency draws are capped at this multiple of p99, so one extreme draw cannot stall a test run. */
const MAX_LATENCY_P99_MULTIPLE = 4;

/** What the server does to one request. */
export interface FaultDecision {
  /** The fault injected, or undefined for a normal answer. */
  fault: FaultKind | undefined;
  /** Wait before answering. @unit milliseconds */
  delayMs: number;
  /** Where a truncated or garbled body is cut, as a fraction of its length, in [0.1, 0.9). */
  cutFraction: number;
}

/** Decides, per request, which fault to inject; a pure function of the seed and the request index. */
export interface FaultInjector {
  /** The validated configuration, defaults filled in. */
  config: FaultConfig;
  /** The decision for the `requestIndex`-th (0-based) faultable request. */
  decide(requestIndex: number): FaultDecision;
}

/**
 * Builds the fault injector of a server. Each request index gets its own stream derived from
 * `seed`, so the decisions depend only on the request sequence, not on timing or on how many
 * draws earlier decisions took.
 *
 * @example
 * const injector = createFaultInjector({ rateLimitRate: 0.1, latencyMs: { medianMs: 20, p99Ms: 200 } }, 7);
 * injector.decide(0); // { fault: undefined, delayMs: 17, cutFraction: 0.43 } (for example)
 */
export function createFaultInjector(faults: FaultConfigInput = {}, seed = 0): FaultInjector {
  const parsed = FaultConfigSchema.safeParse(faults);
  if (!parsed.success) throw new InvalidInputError('fault configuration', zodIssues(parsed.error));
  const config = parsed.data;
  // Cumulative thresholds over one uniform draw: the fault kinds are exclusive outcomes.
  const thresholds: [FaultKind, number][] = [];
  let cumulative = 0;
  for (const [kind, rate] of [
    ['rateLimit', config.rateLimitRate],
    ['serverError', config.serverErrorRate],
    ['truncate', config.truncateRate],
    ['garble', config.garbleRate],
    ['drop', config.dropRate],
    ['hang', config.hangRate],
  ] as const) {
    cumulative += rate;
    if (rate > 0) thresholds.push([kind, cumulative]);
  }
  const { medianMs, p99Ms } = config.latencyMs;
  const sigma = medianMs > 0 && p99Ms > medianMs ? Math.log(p99Ms / medianMs) / Z_99 : 0;
  const maxDelayMs = Math.max(medianMs, p99Ms) * MAX_LATENCY_P99_MULTIPLE;

  return {
    config,
    decide(requestIndex) {
      const rng = new Rng(deriveSeed(seed, requestIndex));
      const draw = rng.next();
      const fault = thresholds.find(([, threshold]) => draw < threshold)?.[0];
      const z = rng.normal();
      const delayMs = medianMs > 0 ? Math.round(Math.min(medianMs * Math.exp(sigma * z), maxDelayMs)) : 0;
      return { fault, delayMs, cutFraction: 0.1 + 0.8 * rng.next() };
    },
  };
}
