import type { DemoResults } from '../results-schema.js';
import type { ChartDefinition } from '../render-chart.js';
import { colorScale } from './series-colors.js';

/** The model under test and its baselines, each with its pairwise accuracy, in report order. */
export function rmContenders(rm: DemoResults['rm']): { name: string; pairAccuracy: DemoResults['rm']['pairAccuracy'] }[] {
  return [{ name: rm.model, pairAccuracy: rm.pairAccuracy }, ...Object.entries(rm.baselines).map(([name, baseline]) => ({ name, pairAccuracy: baseline.pairAccuracy }))];
}

/** Held-out pairwise accuracy overall and per pair source, model next to each baseline, with 95% intervals. */
export function rmSourceChart(rm: DemoResults['rm']): ChartDefinition {
  const contenders = rmContenders(rm);
  const sources = ['overall', ...Object.keys(rm.pairAccuracy.perSource)];
  const rows = contenders.flatMap(({ name, pairAccuracy }) =>
    sources.flatMap((source) => {
      const estimate = source === 'overall' ? pairAccuracy.overall : pairAccuracy.perSource[source];
      return estimate === undefined ? [] : [{ model: name, source, accuracy: estimate.accuracy, low: estimate.ci[0], high: estimate.ci[1], pairs: estimate.total }];
    }),
  );
  const names = contenders.map((contender) => contender.name);
  const colors = colorScale(names.map((name, index) => (index === 0 ? 'model' : name)));
  return {
    id: 'rm-pair-accuracy',
    title: 'Reward model: held-out pairwise accuracy by pair source, vs baselines',
    description: `Grouped bar chart: pairwise accuracy of the ${rm.model} reward model and of the baselines ${names.slice(1).join(' and ')} overall and for each pair source (${sources.slice(1).join(', ')}), with 95% intervals; a line marks 50%.`,
    caption:
      'Share of held-out pairs (tasks never seen in training) whose winner the model scores strictly higher; a tie counts as wrong, so 50% is what a coin would get. Bars are 95% Wilson intervals. The baselines are trained and evaluated the same way but see only the plan (plan-only) or only its length and node count (length-only).',
    pointLayer: 'bars',
    points: rows.length,
    spec: {
      width: 600,
      height: 280,
      layer: [
        {
          data: { values: rows },
          encoding: {
            x: { field: 'source', type: 'nominal', title: 'Pair source', sort: sources, axis: { labelAngle: 0 } },
            xOffset: { field: 'model', type: 'nominal', sort: names },
            color: { field: 'model', type: 'nominal', title: 'Model', scale: { domain: names, range: colors.range }, sort: names },
          },
          layer: [
            { name: 'bars', mark: { type: 'bar', opacity: 0.9 }, encoding: { y: { field: 'accuracy', type: 'quantitative', title: 'Pairwise accuracy', axis: { format: '.0%' }, scale: { domain: [0, 1] } } } },
            { name: 'errors', mark: { type: 'rule', strokeWidth: 1.4 }, encoding: { y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' }, color: { value: '#111827' } } },
          ],
        },
        { data: { values: [{ chance: 0.5 }] }, mark: { type: 'rule', strokeDash: [5, 4], color: '#6b7280' }, encoding: { y: { field: 'chance', type: 'quantitative' } } },
      ],
    },
  };
}

/** Reliability diagram of sigmoid(r_winner - r_loser) on held-out pairs: one bar per non-empty bin. */
export function rmCalibrationChart(rm: DemoResults['rm']): ChartDefinition {
  const rows = rm.calibration.bins.filter((bin) => bin.count > 0).map((bin) => ({ ...bin, middle: (bin.low + bin.high) / 2 }));
  return {
    id: 'rm-reliability',
    title: 'Reward model calibration: reliability diagram',
    description: `Reliability diagram with ${rows.length} bins: for held-out pairs grouped by the predicted probability sigmoid of the score difference, the share that came true, against the diagonal of perfect calibration. Expected calibration error ${(rm.calibration.ece * 100).toFixed(1)} points.`,
    caption: `Pairs are binned by the Bradley-Terry probability sigmoid(r_a − r_b) that plan a wins (each pair counted both ways); bar height is how often that came true. A calibrated model’s bars touch the dashed diagonal. Expected calibration error (ECE): ${(rm.calibration.ece * 100).toFixed(1)} points.`,
    pointLayer: 'bins',
    points: rows.length,
    spec: {
      width: 320,
      height: 280,
      layer: [
        {
          data: { values: rows },
          layer: [
            {
              name: 'bins',
              mark: { type: 'bar', color: '#0072B2', opacity: 0.85, stroke: 'white', strokeWidth: 1 },
              encoding: {
                x: { field: 'low', type: 'quantitative', title: 'Predicted probability', axis: { format: '.0%' }, scale: { domain: [0, 1] } },
                x2: { field: 'high' },
                y: { field: 'accuracy', type: 'quantitative', title: 'Observed frequency', axis: { format: '.0%' }, scale: { domain: [0, 1] } },
                y2: { datum: 0 },
              },
            },
            { name: 'means', mark: { type: 'point', filled: true, color: '#111827', size: 18 }, encoding: { x: { field: 'meanConfidence', type: 'quantitative' }, y: { field: 'accuracy', type: 'quantitative' } } },
          ],
        },
        {
          data: { values: [{ x: 0, y: 0 }, { x: 1, y: 1 }] },
          mark: { type: 'line', strokeDash: [5, 4], color: '#6b7280' },
          encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } },
        },
      ],
    },
  };
}
