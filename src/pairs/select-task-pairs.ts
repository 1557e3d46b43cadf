import { deriveSeed } from '../core/index.js';
import { compareText } from './compare-text.js';
import type { MinedPair, PairMiner } from './miners/pair-miner.js';
import type { MinedSource, PairMiningConfig } from './mining-config.js';
import type { TaskGroup } from './mining-episode.js';
import { reliabilityUnit } from './source-reliability.js';
import type { SourceReport } from './source-report.js';

/** A mined pair that survived dedup, ties and the per-task caps. */
export interface SelectedPair extends MinedPair {
  source: MinedSource;
  /** Seeded tie-break and sampling key: depends only on the seed and the two episode ids. */
  rank: number;
}

/**
 * Runs every miner on one task and keeps its best pairs: drops pairs with the same canonical plan
 * on both sides, merges episode pairs over the same two canonical plans (the majority direction
 * wins; an even split is a tie and dropped), then keeps the strongest `caps.perTaskPerSource` of
 * each source and at most `caps.perTask` overall, taken round-robin across sources.
 */
export function selectTaskPairs(
  group: TaskGroup,
  miners: readonly PairMiner[],
  config: PairMiningConfig,
  reports: Record<MinedSource, SourceReport>,
  /** Receives every mined pair before dedup and caps, with its reliability unit (source reliability is estimated from these). */
  onMined?: (decisions: { unit: string; pair: MinedPair }[]) => void,
): SelectedPair[] {
  const perSource: SelectedPair[][] = [];
  const decisions: { unit: string; pair: MinedPair }[] = [];
  for (const miner of miners) {
    const report = reports[miner.source];
    const reason = miner.skipReason(group);
    if (reason !== undefined) {
      report.tasksSkipped += 1;
      report.skipReasons[reason] = (report.skipReasons[reason] ?? 0) + 1;
      continue;
    }
    const mined = miner.mine(group);
    report.mined += mined.length;
    for (const pair of mined) decisions.push({ unit: reliabilityUnit(miner.source, pair), pair });
    const merged = mergeByCanonicalPlans(mined, report).map((pair) => ({ ...pair, source: miner.source, rank: rankOf(config.seed, pair) }));
    merged.sort(byStrengthThenRank);
    report.dropped.perTaskPerSource += Math.max(0, merged.length - config.caps.perTaskPerSource);
    perSource.push(merged.slice(0, config.caps.perTaskPerSource));
  }
  onMined?.(decisions);
  const selected = roundRobin(perSource, config.caps.perTask);
  for (const list of perSource) {
    const source = list[0]?.source;
    if (source === undefined) continue;
    const kept = selected.filter((pair) => pair.source === source).length;
    reports[source].dropped.perTask += list.length - kept;
    if (kept > 0) reports[source].tasksWithPairs += 1;
  }
  return selected;
}

function mergeByCanonicalPlans(mined: readonly MinedPair[], report: SourceReport): MinedPair[] {
  const byPlans = new Map<string, { forward: MinedPair[]; backward: MinedPair[] }>();
  for (const pair of mined) {
    const winnerKey = pair.winner.canonicalKey;
    const loserKey = pair.loser.canonicalKey;
    if (winnerKey === loserKey) {
      report.dropped.sameCanonicalPlan += 1;
      continue;
    }
    const key = winnerKey < loserKey ? `${winnerKey}>${loserKey}` : `${loserKey}>${winnerKey}`;
    const entry = byPlans.get(key) ?? { forward: [], backward: [] };
    (winnerKey < loserKey ? entry.forward : entry.backward).push(pair);
    byPlans.set(key, entry);
  }
  const kept: MinedPair[] = [];
  for (const { forward, backward } of byPlans.values()) {
    if (forward.length === backward.length) {
      report.dropped.ties += forward.length + backward.length;
      continue;
    }
    const [majority, minority] = forward.length > backward.length ? [forward, backward] : [backward, forward];
    report.dropped.duplicates += majority.length - 1 + minority.length;
    const best = [...majority].sort((a, b) => b.strength - a.strength || compareText(a.winner.id, b.winner.id) || compareText(a.loser.id, b.loser.id))[0]!;
    kept.push(
      majority.length + minority.length > 1
        ? { ...best, evidence: { ...best.evidence, agreeingEpisodePairs: majority.length, disagreeingEpisodePairs: minority.length } }
        : best,
    );
  }
  return kept;
}

/** Seeded key of a pair, a function of the seed and the two episode ids only. */
export function rankOf(seed: number, pair: MinedPair): number {
  // FNV alone barely mixes ids that differ in their last characters; murmur3's finaliser spreads them.
  let hash = deriveSeed(seed, `${pair.winner.id}>${pair.loser.id}`);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

function byStrengthThenRank(a: SelectedPair, b: SelectedPair): number {
  return b.strength - a.strength || a.rank - b.rank;
}

/** Takes one pair from each source in turn (each list already best-first) until `limit`. */
function roundRobin(lists: readonly SelectedPair[][], limit: number): SelectedPair[] {
  const taken: SelectedPair[] = [];
  for (let index = 0; taken.length < limit; index++) {
    let any = false;
    for (const list of lists) {
      const pair = list[index];
      if (pair === undefined) continue;
      any = true;
      if (taken.length < limit) taken.push(pair);
    }
    if (!any) break;
  }
  return taken;
}
