import { describe, expect, it } from 'vitest';
import { Rng } from '../core/rng.js';
import type { MinedPair } from './miners/pair-miner.js';
import type { MiningEpisode } from './mining-episode.js';
import { ReliabilityConfigSchema } from './mining-config.js';
import { ReliabilityTally, reliabilityWeight } from './source-reliability.js';

const episode = (id: string) => ({ id }) as MiningEpisode;

/**
 * Units that each see every episode pair of a task and point the right way with their own
 * probability, independently: the setting the triplet estimate assumes.
 */
function simulate(accuracies: Record<string, number>, tasks: number, seed: number) {
  const rng = new Rng(seed);
  const tally = new ReliabilityTally();
  const truths = new Map<string, boolean>();
  for (let task = 0; task < tasks; task++) {
    const decisions: { unit: string; pair: MinedPair }[] = [];
    const [a, b] = [episode(`t${task}-a`), episode(`t${task}-b`)];
    // a is better than b on every task; the calibration grade says so.
    truths.set(a.id, true).set(b.id, false);
    for (const [unit, accuracy] of Object.entries(accuracies)) {
      const right = rng.next() < accuracy;
      decisions.push({ unit, pair: { winner: right ? a : b, loser: right ? b : a, strength: 1, evidence: {} } });
    }
    tally.addTask(decisions, (id) => truths.get(id));
  }
  return tally;
}

describe('source reliability', () => {
  it('recovers independent units’ accuracies from their agreement alone (Dawid-Skene triplets)', () => {
    const tally = simulate({ checkpoint: 0.65, 'process:consensus': 0.9, 'process:grounding': 0.8, efficiency: 0.55 }, 4000, 1);
    const estimates = tally.estimate(ReliabilityConfigSchema.parse({ method: 'agreement', fixed: {} }));
    const byUnit = Object.fromEntries(estimates.map((entry) => [entry.unit, entry]));
    expect(byUnit.checkpoint?.reliability).toBeCloseTo(0.65, 1);
    expect(byUnit['process:consensus']?.reliability).toBeCloseTo(0.9, 1);
    expect(byUnit['process:grounding']?.reliability).toBeCloseTo(0.8, 1);
    expect(estimates.every((entry) => entry.method === 'agreement')).toBe(true);
    // The near-chance unit is dropped; the reliable ones weigh more than the noisy one.
    expect(byUnit.efficiency?.weight).toBe(0);
    expect(byUnit['process:consensus']!.weight).toBeGreaterThan(byUnit.checkpoint!.weight);
  });

  it('uses graded calibration tasks when asked, fixed values where set, and the prior where nothing overlaps', () => {
    const tally = simulate({ checkpoint: 0.7, 'process:consensus': 0.95 }, 500, 2);
    tally.addTask([{ unit: 'process:health', pair: { winner: episode('x'), loser: episode('y'), strength: 1, evidence: {} } }]);
    const estimates = tally.estimate(ReliabilityConfigSchema.parse({ method: 'calibration', fixed: { 'process:consensus': 0.8 } }));
    expect(estimates.map((entry) => [entry.unit, entry.method])).toEqual([
      ['checkpoint', 'calibration'],
      ['process:consensus', 'fixed'],
      ['process:health', 'prior'],
    ]);
    expect(estimates[0]!.reliability).toBeCloseTo(0.7, 1);
    expect(estimates[0]!.basis).toBe(500);
    expect(estimates[1]!.reliability).toBe(0.8);
    expect(estimates[2]!.reliability).toBe(0.7);
  });

  it('takes outcome pairs as the truth under calibration, however the other units agree with them', () => {
    // Two process units that err together on 30% of the tasks (on the hard ones, say): agreement
    // reads their shared errors as outcome's, (2r - 1)^2 = 0.4 x 0.4 / 1, r = 0.7.
    const rng = new Rng(3);
    const tally = new ReliabilityTally();
    for (let task = 0; task < 2000; task++) {
      const [a, b] = [episode(`t${task}-a`), episode(`t${task}-b`)];
      const processRight = rng.next() >= 0.3;
      const process = processRight ? { winner: a, loser: b } : { winner: b, loser: a };
      tally.addTask(
        [
          { unit: 'outcome', pair: { winner: a, loser: b, strength: 1, evidence: {} } },
          { unit: 'process:consensus', pair: { ...process, strength: 1, evidence: {} } },
          { unit: 'process:grounding', pair: { ...process, strength: 1, evidence: {} } },
        ],
        (id) => id.endsWith('-a'),
      );
    }
    const agreed = tally.estimate(ReliabilityConfigSchema.parse({ method: 'agreement' })).find((entry) => entry.unit === 'outcome');
    expect(agreed?.method).toBe('agreement');
    expect(agreed?.reliability).toBeCloseTo(0.7, 1);
    const calibrated = tally.estimate(ReliabilityConfigSchema.parse({ method: 'calibration' })).find((entry) => entry.unit === 'outcome');
    expect(calibrated).toMatchObject({ reliability: 1, method: 'calibration' });
    expect(calibrated?.weight).toBeCloseTo(reliabilityWeight(1), 3);
    // A grader known to be noisy (an LLM judge) is set, not assumed.
    const judged = tally.estimate(ReliabilityConfigSchema.parse({ method: 'calibration', fixed: { outcome: 0.8 } })).find((entry) => entry.unit === 'outcome');
    expect(judged).toMatchObject({ reliability: 0.8, method: 'fixed' });
  });

  it('weighs a unit by c / (1 - c^2) with c = 2r - 1, zero near chance, capped near certainty', () => {
    expect(reliabilityWeight(0.5)).toBe(0);
    expect(reliabilityWeight(0.54)).toBe(0);
    expect(reliabilityWeight(0.75)).toBeCloseTo(0.5 / 0.75, 12);
    expect(reliabilityWeight(0.99)).toBeCloseTo(0.9 / 0.19, 12);
    expect(reliabilityWeight(1)).toBeCloseTo(reliabilityWeight(0.95), 12);
    expect(ReliabilityConfigSchema.parse({ method: 'none' }).method).toBe('none');
    const none = simulate({ checkpoint: 0.6, outcome: 0.9 }, 50, 3).estimate(ReliabilityConfigSchema.parse({ method: 'none' }));
    expect(none.map((entry) => entry.weight)).toEqual([1, 1]);
  });
});
