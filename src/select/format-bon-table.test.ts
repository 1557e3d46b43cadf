import { describe, expect, it } from 'vitest';
import { formatFrontierLines, type FrontierForText } from './format-bon-table.js';

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

  it('adds every fixed plan and the oracle when asked, and says when no point matches', () => {
    const lines = formatFrontierLines(frontier({ tokensAtBestFixedAccuracy: null, pointAtBestFixedAccuracy: null, shareOfBestFixedPerFamilyTokens: null, cheapestFixedAtBestFixedAccuracy: null }), 'title', { withFixedPlans: true });
    expect(lines.slice(3)).toEqual(['  fixed:search              42.8%     8.2k', '  best-fixed-per-family     52.0%    18.2k', '  oracle                    73.3%   125.2k', '  no operating point matches best-fixed-per-family (every paired interval below 0)']);
  });
});
