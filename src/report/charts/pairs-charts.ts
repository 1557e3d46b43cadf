import type { DemoResults } from '../results-schema.js';
import type { ChartDefinition } from '../render-chart.js';

/** Pair sources with their stats, largest first (ties by name, so the order is stable). */
export function pairSources(pairs: DemoResults['pairs']): [string, DemoResults['pairs'][string]][] {
  return Object.entries(pairs).sort(([a, left], [b, right]) => right.count - left.count || (a < b ? -1 : 1));
}

/** Pairs in the dataset per source (horizontal bars). */
export function pairCountChart(pairs: DemoResults['pairs']): ChartDefinition {
  const rows = pairSources(pairs).map(([source, stats]) => ({ source, count: stats.count }));
  return {
    id: 'pair-counts',
    title: 'Pairs mined per source',
    description: `Bar chart of the number of win-lose pairs mined from each of ${rows.length} sources: ${rows.map((row) => `${row.source} ${row.count}`).join(', ')}.`,
    caption: 'Win-lose pairs in the training dataset, by the rule that made them: outcome (correct over incorrect), checkpoint (later checkpoint over base), process (better intermediate artifacts) and efficiency (equally correct, cheaper).',
    pointLayer: 'bars',
    points: rows.length,
    spec: {
      width: 300,
      height: { step: 28 },
      data: { values: rows },
      encoding: {
        y: { field: 'source', type: 'nominal', title: null, sort: rows.map((row) => row.source) },
        x: { field: 'count', type: 'quantitative', title: 'Pairs', axis: { format: '~s' } },
      },
      layer: [
        { name: 'bars', mark: { type: 'bar', color: '#0072B2', height: { band: 0.7 } } },
        { mark: { type: 'text', align: 'left', dx: 4, color: '#374151', fontSize: 11 }, encoding: { text: { field: 'count', type: 'quantitative', format: ',' } } },
      ],
    },
  };
}

/**
 * Agreement with outcome of each label-free source (sources decided by the outcome itself are
 * left out). Undefined when no source has an agreement to show.
 */
export function pairAgreementChart(pairs: DemoResults['pairs']): ChartDefinition | undefined {
  const rows = pairSources(pairs).flatMap(([source, stats]) => (stats.agreementWithOutcome === null ? [] : [{ source, agreement: stats.agreementWithOutcome, differing: stats.differing ?? null }]));
  if (rows.length === 0) return undefined;
  return {
    id: 'pair-agreement',
    title: 'Label-free pairs: agreement with outcome',
    description: `Bar chart of how often the winner of a label-free pair was the correct episode, for ${rows.map((row) => `${row.source} ${(row.agreement * 100).toFixed(1)}%`).join(', ')}; a line marks 50%.`,
    caption: 'Of the pairs whose two episodes were graded with different outcomes, the share whose winner was the correct one. The labels were not used to make these pairs; 50% (dashed) would mean the source carries no outcome signal.',
    pointLayer: 'bars',
    points: rows.length,
    spec: {
      width: 300,
      height: { step: 28 },
      layer: [
        {
          data: { values: rows },
          encoding: {
            y: { field: 'source', type: 'nominal', title: null, sort: rows.map((row) => row.source) },
            x: { field: 'agreement', type: 'quantitative', title: 'Winner was the correct one', axis: { format: '.0%' }, scale: { domain: [0, 1] } },
          },
          layer: [
            { name: 'bars', mark: { type: 'bar', color: '#009E73', height: { band: 0.7 } } },
            { mark: { type: 'text', align: 'left', dx: 4, color: '#374151', fontSize: 11 }, encoding: { text: { field: 'agreement', type: 'quantitative', format: '.1%' } } },
          ],
        },
        { data: { values: [{ chance: 0.5 }] }, mark: { type: 'rule', strokeDash: [4, 3], color: '#374151', strokeWidth: 1.2 }, encoding: { x: { field: 'chance', type: 'quantitative' } } },
      ],
    },
  };
}
