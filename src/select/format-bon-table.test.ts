import { describe, expect, it } from 'vitest';
import { READING_GAIN_PRICES } from '../rm/index.js';
import { formatFrontierLines, readingGainLine, sampleSwitchingLine, type FrontierForText } from './format-bon-table.js';

const row = (accuracy: number, executionPlusVerification: number) => ({ accuracy, tokens: { executionPlusVerification } });

function frontier(overrides: Partial<FrontierForText> = {}): FrontierForText {
  return {
    points: [
      { label: 'accuracy', ...row(0.57, 39_300), versusBestFixedPerFamily: { diff: 0.05, ci: [0.013, 0.085] }, dominatedBy: [] },
      { label: 'price=0.00005', ...row(0.388, 10_100), versusBestFixedPerFamily: { diff: -0.133, ci: [-0.185, -0.083] }, dominatedBy: ['search'] },
    ],
    fixed: [{ name: 'search', ...row(0.428, 8_195) }],
    bestFixedPerFamily: row(0.52, 18_192),
    oracle: row(0.733, 125_200),
    tokensAtBestFixedAccuracy: 39_300,
    pointAtBestFixedAccuracy: 'accuracy',
    shareOfBestFixedPerFamilyTokens: 39_300 / 18_192,
    cheapestFixedAtBestFixedAccuracy: { name: 'search', executionPlusVerification: 8_084 },
    ...overrides,
  };
}

describe('formatFrontierLines', () => {
  it('prints each operating point with its paired difference and the fixed plans that dominate it, then where the frontier matches', () => {
    const lines = formatFrontierLines(frontier(), 'title');
    expect(lines).toEqual([
      'title',
      '  accuracy                  57.0%    39.3k   +5.0 [+1.3, +8.5]',
      '  price=0.00005             38.8%    10.1k   -13.3 [-18.5, -8.3]   dominated by search',
      '  best-fixed-per-family     52.0%    18.2k',
      '  matches best-fixed-per-family at 39.3k tokens (accuracy): 216.0% of its tokens; the cheapest fixed plan that matches it, search, costs 8.1k',
    ]);
  });

  it('says what the best task-blind mix of fixed plans per family reaches at the matching point\'s tokens', () => {
    const mix = { perSuite: { arith: { direct: 1 }, multihop: { search: 0.955, direct: 0.045 } }, accuracy: 0.554, executionPlusVerification: 4_395, pointMinusMix: { diff: -0.0015, ci: [-0.009, 0.006] as const } };
    expect(formatFrontierLines(frontier({ taskBlindMixAtBestFixedAccuracy: mix }), 'title').at(-1)).toBe(
      "  the best task-blind mix of fixed plans per family at 4.4k tokens (direct for arith; search on 95.5%, direct on 4.5% of multihop's tasks) reaches 55.4%; accuracy minus the mix -0.1 [-0.9, +0.6]",
    );
  });

  it('adds every fixed plan and the oracle when asked, and says when no point matches', () => {
    const lines = formatFrontierLines(frontier({ tokensAtBestFixedAccuracy: null, pointAtBestFixedAccuracy: null, shareOfBestFixedPerFamilyTokens: null, cheapestFixedAtBestFixedAccuracy: null }), 'title', { withFixedPlans: true });
    expect(lines.slice(3)).toEqual(['  fixed:search              42.8%     8.2k', '  best-fixed-per-family     52.0%    18.2k', '  oracle                    73.3%   125.2k', '  no operating point matches best-fixed-per-family (every paired interval below 0)']);
  });
});

describe('what rm+templates says of the samples', () => {
  const gain = {
    margin: 1,
    prices: [...READING_GAIN_PRICES],
    suites: [
      { suite: 'arith', tasks: 60, samplesPerTask: 8, gains: READING_GAIN_PRICES.map(() => 0.013) },
      { suite: 'multihop', tasks: 70, samplesPerTask: 8, gains: READING_GAIN_PRICES.map(() => 0.017) },
    ],
  };
  const switching = (arithWins: number) => ({
    margin: 1,
    suites: [
      { suite: 'arith', tasks: 9, switches: arithWins, wins: arithWins, losses: 0 },
      { suite: 'multihop', tasks: 9, switches: 1, wins: 0, losses: 1 },
    ],
  });

  it('prints the reading gain only for suites where samples may replace the router, and nothing where none may', () => {
    expect(readingGainLine(gain)).toMatch(/from 130 training tasks\) at price=0\.000001 \/ price=0\.00001 \/ price=0\.0001: arith 0\.013 \/ 0\.013 \/ 0\.013, multihop 0\.017/);
    expect(readingGainLine(gain, switching(3))).toMatch(/from 60 training tasks\) at [^:]*: arith 0\.013 \/ 0\.013 \/ 0\.013$/);
    expect(readingGainLine(gain, switching(1))).toBeUndefined();
  });

  it('says per suite how the switches to samples fared on the validation tasks, and the verdict', () => {
    expect(sampleSwitchingLine(switching(3))).toMatch(/: arith 3 switches on 9 tasks, 3 won, 0 lost: samples may replace it; multihop 1 switch on 9 tasks, 0 won, 1 lost: the router alone; any other suite: the router alone$/);
    expect(sampleSwitchingLine({ margin: 1, suites: [] })).toMatch(/no validation task had both, so the router alone everywhere$/);
  });
});
