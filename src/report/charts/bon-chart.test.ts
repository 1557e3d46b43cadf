import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseResults } from '../read-results.js';
import { bonChart } from './bon-chart.js';

interface Scale {
  domain: string[];
  range: string[];
}
interface Channel {
  field: string;
  scale: Scale;
}

/** How each data row of the Best-of-N chart is drawn: its colour, and its marker when the points layer sets one. */
function looks(results: ReturnType<typeof parseResults>) {
  const chart = bonChart(results.bon);
  const spec = chart.spec as unknown as { data: { values: Record<string, string>[] }; encoding: { color: Channel }; layer: { name?: string; encoding?: { shape?: Channel } }[] };
  const color = spec.encoding.color;
  const shape = spec.layer.find((layer) => layer.name === 'points')?.encoding?.shape;
  return spec.data.values.map((row) => ({
    strategy: row.strategy!,
    look: `${color.scale.range[color.scale.domain.indexOf(row[color.field]!)]} ${shape === undefined ? 'circle' : shape.scale.range[shape.scale.domain.indexOf(row[shape.field]!)]}`,
  }));
}

describe('the Best-of-N chart', () => {
  // Version-2 results: 12 strategies and 11 fixed-plan baselines (issue 24: 23 strategies in 15 colours).
  const results = parseResults(readFileSync(new URL('../test-fixtures/results-v2.json', import.meta.url), 'utf8'), 'fixture');

  it('draws every strategy unlike any other, and the fixed-plan baselines as one series', () => {
    const drawn = looks(results);
    const lookOf = new Map<string, string>();
    for (const { strategy, look } of drawn) lookOf.set(strategy, look);
    const strategies = [...lookOf.keys()].filter((name) => !name.startsWith('fixed:'));
    const fixed = [...lookOf.keys()].filter((name) => name.startsWith('fixed:'));
    expect(strategies).toHaveLength(12);
    expect(fixed).toHaveLength(11);
    // No two strategies look alike, and none looks like a fixed plan.
    expect(new Set(strategies.map((name) => lookOf.get(name))).size).toBe(strategies.length);
    expect(new Set(fixed.map((name) => lookOf.get(name))).size).toBe(1);
    expect(strategies.map((name) => lookOf.get(name))).not.toContain(lookOf.get(fixed[0]!));
    expect(lookOf.get('rm+templates')).not.toBe(lookOf.get('fixed:reflexion-3'));
  });

  it('still has one point per strategy and N, and says how fixed plans are drawn', () => {
    const chart = bonChart(results.bon);
    expect(chart.points).toBe(results.bon.perN.reduce((sum, table) => sum + Object.keys(table.strategies).length, 0));
    expect(chart.caption).toContain('The 11 fixed-plan baselines (one template plan run on every task) are the grey crosses');
  });
});
