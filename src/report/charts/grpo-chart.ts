import type { DemoResults } from '../results-schema.js';
import type { ChartDefinition } from '../render-chart.js';
import { colorScale } from './series-colors.js';

/** The GRPO runs present, `rm` and `execution` first. */
export function grpoRuns(grpo: DemoResults['grpo']): [string, DemoResults['grpo']['rm']][] {
  const runs: [string, DemoResults['grpo']['rm'] | undefined][] = [
    ['rm', grpo.rm],
    ['execution', grpo.execution],
    ['judge', grpo.judge],
    ['hybrid', grpo.hybrid],
  ];
  return runs.filter((run): run is [string, DemoResults['grpo']['rm']] => run[1] !== undefined);
}

/**
 * Held-out accuracy vs cumulative training tokens, one line per reward source (log x axis).
 * Step 0 spent no training tokens and cannot sit on a log axis; the starting accuracy is the
 * dashed horizontal rule instead.
 */
export function grpoChart(grpo: DemoResults['grpo']): ChartDefinition {
  const runs = grpoRuns(grpo);
  const rows = runs.flatMap(([reward, run]) =>
    run.curve.filter((point) => point.trainingTokens.total > 0).map((point) => ({ reward, step: point.step, tokens: point.trainingTokens.total, accuracy: point.accuracy })),
  );
  const rewards = runs.map(([reward]) => reward);
  return {
    id: 'grpo-accuracy-tokens',
    title: 'Reward-guided training (GRPO): held-out accuracy vs training tokens',
    description: `Line chart: held-out accuracy of the orchestrator against cumulative training tokens for GRPO with ${rewards.join(', ')} reward; a dashed line marks the starting accuracy of ${(grpo.baseAccuracy * 100).toFixed(1)}%.`,
    caption:
      'Each point is a held-out evaluation during training; x is the training tokens spent so far (orchestrator, execution and verification; evaluation tokens excluded). The dashed line is the accuracy of the starting checkpoint. The reward model’s own cost — the tokens spent collecting the episodes it was trained on — is not on this axis; the table below adds it.',
    pointLayer: 'points',
    points: rows.length,
    spec: {
      width: 600,
      height: 300,
      layer: [
        {
          data: { values: rows },
          encoding: {
            x: { field: 'tokens', type: 'quantitative', scale: { type: 'log' }, title: 'Cumulative training tokens (log scale)', axis: { format: '~s' } },
            y: { field: 'accuracy', type: 'quantitative', title: 'Held-out accuracy', axis: { format: '.0%' }, scale: { domain: [0, 1] } },
            color: { field: 'reward', type: 'nominal', title: 'Reward', scale: colorScale(rewards), sort: rewards },
          },
          layer: [
            { name: 'lines', mark: { type: 'line', strokeWidth: 2 }, encoding: { order: { field: 'step', type: 'quantitative' } } },
            { name: 'points', mark: { type: 'point', filled: true, size: 55, opacity: 1, stroke: 'white', strokeWidth: 0.8 } },
          ],
        },
        {
          name: 'start',
          data: { values: [{ accuracy: grpo.baseAccuracy, label: `start ${(grpo.baseAccuracy * 100).toFixed(1)}%` }] },
          layer: [
            { mark: { type: 'rule', strokeDash: [5, 4], color: '#6b7280' }, encoding: { y: { field: 'accuracy', type: 'quantitative' } } },
            { mark: { type: 'text', align: 'left', dx: 4, dy: -6, color: '#4b5563', fontSize: 11 }, encoding: { y: { field: 'accuracy', type: 'quantitative' }, x: { value: 0 }, text: { field: 'label' } } },
          ],
        },
      ],
    },
  };
}
