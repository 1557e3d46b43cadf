import type { MinedPair } from './miners/pair-miner.js';
import type { MinedSource, ReliabilityConfig } from './mining-config.js';

/** How one unit's reliability was found. */
export type ReliabilityMethod = 'agreement' | 'calibration' | 'fixed' | 'prior' | 'none';

/** The estimated chance that a unit's pairs point the right way, and the pair weight it earns. */
export interface UnitReliability {
  /** A source, or `process:<signal>`. */
  unit: string;
  /** In [0.5, 1]; 0.5 is chance. */
  reliability: number;
  method: ReliabilityMethod;
  /** Episode pairs behind the estimate (shared with other units, or graded on calibration tasks). */
  basis: number;
  /** Multiplies the unit's pair weights (before the dataset's weights are rescaled to mean 1); 0 drops its pairs. */
  weight: number;
}

/** The unit a mined pair belongs to: its source, or `process:<signal>` for process pairs. */
export function reliabilityUnit(source: MinedSource, pair: MinedPair): string {
  return source === 'process' ? `process:${String(pair.evidence.signal ?? 'unknown')}` : source;
}

/** Below this estimated reliability a unit is indistinguishable from chance and its pairs are dropped. */
const CHANCE_MARGIN = 0.55;
/** Largest 2*reliability - 1 used in a weight, so one near-perfect unit cannot swamp the rest. */
const MAX_ACCURACY_MARGIN = 0.9;
/** A unit pair whose agreement is this close to chance cannot anchor a triplet estimate. */
const MIN_ANCHOR_CORRELATION = 0.1;

/**
 * The pair weight of a unit with reliability r: c / (1 - c^2) with c = 2r - 1. A label that is
 * right with probability r has mean c times the truth and variance 1 - c^2, so this is its
 * inverse-variance weight after rescaling; units near chance weigh almost nothing.
 */
export function reliabilityWeight(reliability: number): number {
  if (reliability < CHANCE_MARGIN) return 0;
  const margin = Math.min(2 * reliability - 1, MAX_ACCURACY_MARGIN);
  return margin / (1 - margin * margin);
}

/**
 * Counts, over every task, how often two units decide the same episode pair the same way, and
 * (on calibration tasks) how often each unit's winner was the one graded correct. Only counts
 * are kept, so memory does not grow with the store.
 */
export class ReliabilityTally {
  private readonly shared = new Map<string, { agree: number; total: number }>();
  private readonly graded = new Map<string, { agree: number; total: number }>();
  private readonly units = new Set<string>();

  /**
   * Adds one task's mined pairs (before dedup and caps). `correctOf` gives an episode's grade on
   * a calibration task (undefined elsewhere and in label-free mining).
   */
  addTask(decisions: readonly { unit: string; pair: MinedPair }[], correctOf?: (episodeId: string) => boolean | undefined): void {
    const byEpisodePair = new Map<string, Map<string, number>>();
    for (const { unit, pair } of decisions) {
      this.units.add(unit);
      const winner = pair.winner.id;
      const loser = pair.loser.id;
      const key = winner < loser ? `${winner}|${loser}` : `${loser}|${winner}`;
      const votes = byEpisodePair.get(key) ?? new Map<string, number>();
      votes.set(unit, winner < loser ? 1 : -1);
      byEpisodePair.set(key, votes);
      if (correctOf !== undefined) {
        const winnerCorrect = correctOf(winner);
        const loserCorrect = correctOf(loser);
        if (winnerCorrect !== undefined && loserCorrect !== undefined && winnerCorrect !== loserCorrect) bump(this.graded, unit, winnerCorrect);
      }
    }
    for (const votes of byEpisodePair.values()) {
      const entries = [...votes];
      for (let i = 0; i < entries.length; i++) {
        for (let j = i + 1; j < entries.length; j++) {
          const [first, firstVote] = entries[i]!;
          const [second, secondVote] = entries[j]!;
          bump(this.shared, sharedKey(first, second), firstVote === secondVote);
        }
      }
    }
  }

  /**
   * Each unit's reliability by `config.method`, and its weight. `agreement` solves, for units u,
   * v, w that share episode pairs, (2r_u - 1)^2 = c_uv c_uw / c_vw where c = 2 * agreement - 1
   * (units err independently given the truth, as in Dawid and Skene 1979), taking the median over
   * all (v, w); a unit with no such triplet gets `config.prior`.
   */
  estimate(config: ReliabilityConfig): UnitReliability[] {
    const units = [...this.units].sort();
    return units.map((unit) => {
      const fixed = config.fixed[unit as keyof typeof config.fixed];
      if (config.method === 'none') return { unit, reliability: 1, method: 'none' as const, basis: 0, weight: 1 };
      if (fixed !== undefined) return finish(unit, fixed, 'fixed', 0);
      // Calibration takes the grades as the truth every other unit is measured against, so the
      // grades' own pairs are that truth: estimating them by agreement with the units they
      // calibrate let noisy process signals outvote them (0.63 on an active collection, weight 0.27 against process:validity's 4.74).
      if (config.method === 'calibration' && unit === 'outcome') return finish(unit, 1, 'calibration', this.graded.get(unit)?.total ?? 0);
      if (config.method === 'calibration') {
        const counts = this.graded.get(unit);
        if (counts !== undefined && counts.total >= config.minOverlap) return finish(unit, Math.max(0.5, counts.agree / counts.total), 'calibration', counts.total);
      }
      const triplet = this.tripletEstimate(unit, units, config.minOverlap);
      if (triplet !== undefined) return finish(unit, triplet.reliability, 'agreement', triplet.basis);
      return finish(unit, config.prior, 'prior', 0);
    });
  }

  /** Agreement rate of two units on the episode pairs both decided, with how many there were. */
  agreement(first: string, second: string): { rate: number; pairs: number } | undefined {
    const counts = this.shared.get(sharedKey(first, second));
    return counts === undefined || counts.total === 0 ? undefined : { rate: counts.agree / counts.total, pairs: counts.total };
  }

  private correlation(first: string, second: string, minOverlap: number): { value: number; pairs: number } | undefined {
    const counts = this.shared.get(sharedKey(first, second));
    if (counts === undefined || counts.total < minOverlap) return undefined;
    return { value: (2 * counts.agree) / counts.total - 1, pairs: counts.total };
  }

  private tripletEstimate(unit: string, units: readonly string[], minOverlap: number): { reliability: number; basis: number } | undefined {
    const estimates: number[] = [];
    let basis = 0;
    for (let i = 0; i < units.length; i++) {
      for (let j = i + 1; j < units.length; j++) {
        const second = units[i]!;
        const third = units[j]!;
        if (second === unit || third === unit) continue;
        const uv = this.correlation(unit, second, minOverlap);
        const uw = this.correlation(unit, third, minOverlap);
        const vw = this.correlation(second, third, minOverlap);
        if (uv === undefined || uw === undefined || vw === undefined || vw.value < MIN_ANCHOR_CORRELATION) continue;
        estimates.push(Math.sqrt(Math.max(0, (uv.value * uw.value) / vw.value)));
        basis += uv.pairs + uw.pairs;
      }
    }
    if (estimates.length === 0) return undefined;
    estimates.sort((a, b) => a - b);
    const middle = estimates.length >> 1;
    const margin = estimates.length % 2 === 1 ? estimates[middle]! : (estimates[middle - 1]! + estimates[middle]!) / 2;
    return { reliability: (1 + Math.min(1, margin)) / 2, basis };
  }
}

function finish(unit: string, reliability: number, method: ReliabilityMethod, basis: number): UnitReliability {
  const rounded = Math.round(reliability * 10_000) / 10_000;
  return { unit, reliability: rounded, method, basis, weight: Math.round(reliabilityWeight(rounded) * 10_000) / 10_000 };
}

function sharedKey(first: string, second: string): string {
  return first < second ? `${first}&${second}` : `${second}&${first}`;
}

function bump(counts: Map<string, { agree: number; total: number }>, key: string, agreed: boolean): void {
  const entry = counts.get(key) ?? { agree: 0, total: 0 };
  entry.total += 1;
  if (agreed) entry.agree += 1;
  counts.set(key, entry);
}
