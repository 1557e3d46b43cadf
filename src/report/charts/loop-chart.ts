import type { DemoResults } from '../results-schema.js';
import type { ChartDefinition } from '../render-chart.js';

/** Held-out pairwise accuracy and BoN@8 accuracy per round of `orchrm loop`, with intervals when known. */
export function loopChart(loop: NonNullable<DemoResults['loop']>): ChartDefinition {
  const rows = loop.flatMap((round) => [
    { round: round.round, metric: 'pairwise accuracy', value: round.pairAccuracy, low: round.pairAccuracyCi?.[0] ?? null, high: round.pairAccuracyCi?.[1] ?? null },
    { round: round.round, metric: 'Best-of-8 accuracy', value: round.bonAccuracy, low: round.bonAccuracyCi?.[0] ?? null, high: round.bonAccuracyCi?.[1] ?? null },
  ]);
  const metrics = ['pairwise accuracy', 'Best-of-8 accuracy'];
  return {
    id: 'loop-rounds',
    title: 'Self-improvement loop: accuracy per round',
    description: `Line chart over ${loop.length} rounds of the reward model's held-out pairwise accuracy and the Best-of-8 accuracy it gives, with 95% intervals where measured.`,
    caption: 'Each round collects new episodes with the current orchestrator and reward model, mines pairs from everything collected so far and retrains the model. Whether more rounds keep helping is what this chart shows; flat lines are a finding too.',
    pointLayer: 'points',
    points: rows.length,
    spec: {
      width: 420,
      height: 240,
      data: { values: rows },
      encoding: {
        x: { field: 'round', type: 'ordinal', title: 'Round', axis: { labelAngle: 0 } },
        color: { field: 'metric', type: 'nominal', title: null, scale: { domain: metrics, range: ['#0072B2', '#D55E00'] }, sort: metrics },
      },
      layer: [
        { name: 'lines', mark: { type: 'line', strokeWidth: 2 }, encoding: { y: { field: 'value', type: 'quantitative' } } },
        { name: 'errors', transform: [{ filter: 'datum.low != null' }], mark: { type: 'rule', strokeWidth: 1.5 }, encoding: { y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' } } },
        { name: 'points', mark: { type: 'point', filled: true, size: 55, opacity: 1 }, encoding: { y: { field: 'value', type: 'quantitative', title: 'Held-out accuracy', axis: { format: '.0%' }, scale: { domain: [0, 1] } } } },
      ],
    },
  };
}
