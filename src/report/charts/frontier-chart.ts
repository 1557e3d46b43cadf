import type { ChartDefinition } from '../render-chart.js';
import type { BonFrontierResult } from '../results-schema.js';

/** The frontier chart's series, in legend order, with their colour and marker. */
const SERIES = [
  { name: 'rm+templates (cost-aware)', color: '#2563eb', shape: 'circle' },
  { name: 'router alone (cost-aware)', color: '#7c3aed', shape: 'triangle-down' },
  { name: 'best-fixed-per-family', color: '#dc2626', shape: 'diamond' },
  { name: 'best-fixed', color: '#ea580c', shape: 'square' },
  { name: 'oracle', color: '#16a34a', shape: 'triangle-up' },
  { name: 'fixed plans', color: '#9ca3af', shape: 'cross' },
] as const;

/**
 * Accuracy against mean execution plus verification tokens per task (log x axis): the operating
 * points of cost-aware rm+templates (and of the template router alone, when given) each joined in
 * order of tokens, every fixed plan, best-fixed, best-fixed-per-family and the oracle, each with
 * its 95% interval.
 */
export function frontierChart(frontier: BonFrontierResult, routerFrontier?: BonFrontierResult): ChartDefinition {
  const row = (series: string, label: string, entry: { accuracy: number; ci: [number, number]; tokens: { executionPlusVerification: number } }) => ({
    series,
    label,
    tokens: Math.max(1, entry.tokens.executionPlusVerification),
    accuracy: entry.accuracy,
    low: entry.ci[0],
    high: entry.ci[1],
  });
  const rows = [
    ...frontier.points.map((point) => row(SERIES[0].name, point.label, point)),
    ...(routerFrontier?.points.map((point) => row(SERIES[1].name, `router ${point.label}`, point)) ?? []),
    row(SERIES[2].name, 'best-fixed-per-family', frontier.bestFixedPerFamily),
    row(SERIES[3].name, `best-fixed (${frontier.bestFixed.name})`, frontier.bestFixed),
    ...(frontier.oracle ? [row(SERIES[4].name, 'oracle', frontier.oracle)] : []),
    ...frontier.fixed.map((entry) => row(SERIES[5].name, `fixed:${entry.name}`, entry)),
  ];
  const present = SERIES.filter((series) => rows.some((entry) => entry.series === series.name));
  const domain = present.map((series) => series.name);
  return {
    id: 'bon-frontier',
    title: `Cost-accuracy frontier of rm+templates${routerFrontier ? ' and of the template router alone' : ''} (N = ${frontier.n})`,
    description: `Scatter plot: test accuracy against mean execution plus verification tokens per task for ${frontier.points.length} operating points of cost-aware rm+templates (a sweep of prices per token and margins)${routerFrontier ? ` and ${routerFrontier.points.length} of cost-aware rm-templates-only (the template router alone)` : ''}, ${frontier.fixed.length} fixed plans, best-fixed, best-fixed-per-family${frontier.oracle ? ' and the oracle' : ''}, with 95% intervals as vertical bars.`,
    caption: `Each blue point is rm+templates under one objective (the accuracy objective, a price per predicted execution token, or the cheapest plan within a margin of the best expected accuracy), joined in order of tokens;${routerFrontier ? " purple points are rm-templates-only under the same objectives, the template router's probabilities against the execution tokens it expects each template to spend on the task;" : ''} grey crosses are the ${frontier.fixed.length} fixed plans, each run on every one of the ${frontier.tasks} test tasks. Tokens are execution plus verification per task (writing the N plans is the same for every operating point); further left is cheaper, higher is better. Best-fixed and best-fixed-per-family are chosen after the fact on these very tasks.`,
    pointLayer: 'points',
    points: rows.length,
    spec: {
      width: 600,
      height: 340,
      data: { values: rows },
      encoding: {
        x: { field: 'tokens', type: 'quantitative', scale: { type: 'log' }, title: 'Mean execution + verification tokens per task (log scale)', axis: { format: '~s' } },
        color: { field: 'series', type: 'nominal', title: 'Series', scale: { domain, range: present.map((series) => series.color) }, sort: domain, legend: { labelLimit: 240 } },
        tooltip: [{ field: 'label' }, { field: 'accuracy', format: '.1%' }, { field: 'tokens', format: ',.0f' }],
      },
      layer: [
        {
          name: 'lines',
          transform: [{ filter: `datum.series === '${SERIES[0].name}' || datum.series === '${SERIES[1].name}'` }],
          mark: { type: 'line', strokeWidth: 1.5, opacity: 0.55 },
          encoding: { y: { field: 'accuracy', type: 'quantitative' }, order: { field: 'tokens', type: 'quantitative' }, detail: { field: 'series', type: 'nominal' } },
        },
        { name: 'errors', mark: { type: 'rule', strokeWidth: 1.2, opacity: 0.7 }, encoding: { y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' }, detail: { field: 'label', type: 'nominal' } } },
        {
          name: 'points',
          mark: { type: 'point', filled: true, opacity: 1, size: 70, stroke: 'white', strokeWidth: 0.8 },
          encoding: {
            shape: { field: 'series', type: 'nominal', title: 'Series', scale: { domain, range: present.map((series) => series.shape) }, sort: domain },
            y: { field: 'accuracy', type: 'quantitative', title: 'Accuracy (test tasks)', axis: { format: '.0%' }, scale: { zero: true, domain: [0, 1] } },
          },
        },
      ],
    },
  };
}
