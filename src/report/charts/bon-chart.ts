import { STRATEGY_NAMES } from '../../select/index.js';
import type { DemoResults } from '../results-schema.js';
import type { ChartDefinition } from '../render-chart.js';
import { colorScale } from './series-colors.js';

/** The series every `fixed:<template>` strategy is drawn in: one template plan run on every task. */
export const FIXED_PLANS_SERIES = 'fixed plans';
/** Its look: light grey crosses, apart from every strategy's colour and marker. */
const FIXED_PLANS_STYLE = { color: '#9ca3af', shape: 'cross' } as const;
/** Markers of the strategies, in order (the cross is the fixed plans'). */
const STRATEGY_SHAPES = ['circle', 'square', 'triangle-up', 'diamond', 'triangle-down', 'triangle-right', 'triangle-left'] as const;

/**
 * The series of the Best-of-N chart and how each is drawn: every strategy its own colour (fixed
 * per name, see series-colors.ts) and marker, so no two look alike even where colours repeat,
 * and the fixed-plan baselines (`fixed:<template>`, a dozen of them) one grey series, since they
 * are one kind of baseline and would otherwise take most of the palette.
 */
export function bonSeries(strategies: readonly string[]): { domain: string[]; colors: string[]; shapes: string[] } {
  const named = strategies.filter((name) => !name.startsWith('fixed:'));
  const { range } = colorScale(named);
  const domain = [...named];
  const colors = [...range];
  const shapes = named.map((_, index) => STRATEGY_SHAPES[index % STRATEGY_SHAPES.length] as string);
  if (named.length < strategies.length) {
    domain.push(FIXED_PLANS_SERIES);
    colors.push(FIXED_PLANS_STYLE.color);
    shapes.push(FIXED_PLANS_STYLE.shape);
  }
  return { domain, colors, shapes };
}

/** Strategy names in the order issue 6 lists them, then any others in order of appearance. */
export function orderStrategies(names: Iterable<string>): string[] {
  const present = new Set(names);
  const known: string[] = STRATEGY_NAMES.filter((name) => present.has(name));
  return [...known, ...[...present].filter((name) => !known.includes(name))];
}

/** The tables the curves are drawn from: every N run, or the headline N alone. */
export function bonTables(bon: DemoResults['bon']): DemoResults['bon']['perN'] {
  return bon.perN.length > 0 ? bon.perN : [bon];
}

/**
 * Accuracy vs mean total tokens per task for every Best-of-N strategy, one point per strategy
 * and N with its 95% interval, points of one strategy joined in order of N (log x axis).
 */
export function bonChart(bon: DemoResults['bon']): ChartDefinition {
  const rows = bonTables(bon).flatMap((table) =>
    Object.entries(table.strategies).map(([strategy, summary]) => ({
      strategy,
      series: strategy.startsWith('fixed:') ? FIXED_PLANS_SERIES : strategy,
      n: table.n,
      tokens: Math.max(1, summary.tokens.total),
      accuracy: summary.accuracy,
      low: summary.ci[0],
      high: summary.ci[1],
    })),
  );
  const strategies = orderStrategies(rows.map((row) => row.strategy));
  const series = bonSeries(strategies);
  const fixedCount = strategies.length - series.domain.filter((name) => name !== FIXED_PLANS_SERIES).length;
  const ns = [...new Set(rows.map((row) => row.n))].sort((a, b) => a - b);
  const x = { field: 'tokens', type: 'quantitative', scale: { type: 'log' }, title: 'Mean total tokens per task (log scale)', axis: { format: '~s' } } as const;
  return {
    id: 'bon-accuracy-tokens',
    title: 'Best-of-N: accuracy vs tokens spent per task',
    description: `Scatter plot with lines: test accuracy against mean total tokens per task (orchestrator, execution and verification) for ${strategies.length} strategies (${strategies.join(', ')}) at N = ${ns.join(', ')}, with 95% confidence intervals as vertical bars.`,
    caption: `Each point is one strategy at one N (${ns.join(', ')}; larger points are larger N), each strategy with its own colour and marker; vertical bars are 95% Wilson intervals; lines join a strategy's points in order of N. ${fixedCount > 0 ? `The ${fixedCount} fixed-plan baselines (one template plan run on every task) are the grey crosses; the tables name each. ` : ''}Further left is cheaper, higher is better. Tokens are per task and include writing the N plans, executing the chosen ones and any judge.`,
    pointLayer: 'points',
    points: rows.length,
    spec: {
      width: 600,
      height: 340,
      data: { values: rows },
      encoding: {
        x,
        color: { field: 'series', type: 'nominal', title: 'Strategy', scale: { domain: series.domain, range: series.colors }, sort: series.domain, legend: { labelLimit: 240 } },
      },
      layer: [
        {
          name: 'lines',
          mark: { type: 'line', strokeWidth: 1.5, opacity: 0.55 },
          encoding: { y: { field: 'accuracy', type: 'quantitative' }, order: { field: 'n', type: 'quantitative' }, detail: { field: 'strategy', type: 'nominal' } },
        },
        { name: 'errors', mark: { type: 'rule', strokeWidth: 1.5, opacity: 0.8 }, encoding: { y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' }, detail: { field: 'strategy', type: 'nominal' } } },
        {
          name: 'points',
          mark: { type: 'point', filled: true, opacity: 1, stroke: 'white', strokeWidth: 0.8 },
          encoding: {
            shape: { field: 'series', type: 'nominal', title: 'Strategy', scale: { domain: series.domain, range: series.shapes }, sort: series.domain },
            y: { field: 'accuracy', type: 'quantitative', title: 'Accuracy (test tasks)', axis: { format: '.0%' }, scale: { zero: true, domain: [0, 1] } },
            size: { field: 'n', type: 'ordinal', title: 'N', scale: { domain: ns, range: ns.map((_, index) => 20 + (index * 180) / Math.max(1, ns.length - 1)) } },
          },
        },
      ],
    },
  };
}
