import { grpoChart, grpoRuns } from '../charts/grpo-chart.js';
import { percent, percentInterval, points, tokens } from '../format-values.js';
import { htmlTable, type TableCell } from '../html-table.js';
import { renderChartFigure } from '../render-chart.js';
import type { DemoResults } from '../results-schema.js';
import { paragraph, section } from './section.js';

/** GRPO: accuracy vs training tokens per reward source, and the token bill including the reward model's collection. */
export async function grpoSection(grpo: DemoResults['grpo']): Promise<string> {
  const rows = grpoRuns(grpo).map(([reward, run]): TableCell[] => [
    reward,
    run.from ?? '',
    run.steps === undefined ? '' : String(run.steps),
    { text: percent(run.accuracy), className: 'strong' },
    points(run.accuracy - grpo.baseAccuracy),
    tokens(run.trainingTokens.orchestrator),
    tokens(run.trainingTokens.execution),
    tokens(run.trainingTokens.verification),
    { text: tokens(run.trainingTokens.total), className: 'strong' },
  ]);
  const collection = grpo.rmCollectionTokens;
  rows.push([
    { text: 'rm collection', className: 'muted', title: 'Tokens spent collecting the episodes the GRPO reward model was trained on' },
    '',
    '',
    '',
    '',
    tokens(collection.orchestrator),
    tokens(collection.execution),
    tokens(collection.verification),
    tokens(collection.total),
  ]);
  rows.push([
    { text: 'rm total', className: 'strong', title: 'rm reward: GRPO training plus collecting the reward model’s training episodes; the stronger checkpoint’s training is left out here and counted in the whole bill' },
    '',
    '',
    '',
    '',
    tokens(grpo.rm.trainingTokens.orchestrator + collection.orchestrator),
    tokens(grpo.rm.trainingTokens.execution + collection.execution),
    tokens(grpo.rm.trainingTokens.verification + collection.verification),
    { text: tokens(grpo.rm.trainingTokens.total + collection.total), className: 'strong' },
  ]);
  const { seeds } = grpo;
  const seedsTable =
    seeds === undefined
      ? ''
      : htmlTable({
          caption: `Held-out accuracy after training, mean over ${seeds.seeds.length} seeds (${seeds.seeds.join(', ')}) with its 95% interval (Student’s t over seeds); every seed starts from the same checkpoint, trains on the same tasks and is evaluated on the same held-out draws`,
          columns: ['Reward', 'Mean accuracy', '95% CI', 'Gain', 'Each seed', 'Training tokens per run'],
          rows: (
            [
              ['rm', seeds.rm],
              ['execution', seeds.execution],
            ] as const
          ).map(([reward, runs]): TableCell[] => [
            reward,
            { text: percent(runs.mean), className: 'strong' },
            percentInterval(runs.ci),
            points(runs.mean - grpo.baseAccuracy),
            runs.accuracies.map(percent).join(', '),
            tokens(runs.trainingTokens.total),
          ]),
          numericColumns: [1, 3, 5],
        });
  return section('grpo', 'Reward-guided orchestrator training (GRPO)', [
    paragraph(
      `The orchestrator policy is trained with GRPO from the same start (held-out accuracy ${percent(grpo.baseAccuracy)}) for the same number of steps. With rm reward the sampled plans are only scored by the reward model; with execution reward every sampled plan is executed and graded.${
        grpo.rewardModel === undefined
          ? ''
          : ` The reward model GRPO reads was trained on ${percent(grpo.rewardModel.share)} of the collection’s training tasks (${grpo.rewardModel.tasks} tasks, ${grpo.rewardModel.pairs} pairs), whose episodes cost ${tokens(grpo.rmCollectionTokens.total)} of the whole collection’s ${tokens(grpo.rewardModel.wholeCollectionTokens.total)} tokens; Best-of-N’s model read all of it.`
      }`,
    ),
    await renderChartFigure(grpoChart(grpo)),
    htmlTable({
      caption: 'GRPO runs: final held-out accuracy, gain over the start in points, and cumulative training tokens by role; “rm collection” is what the episodes behind the GRPO reward model cost, “rm total” adds it to rm’s training (it leaves out the stronger checkpoint’s training: see the whole bill)',
      columns: ['Reward', 'From', 'Steps', 'Accuracy', 'Gain', 'Orchestrator', 'Execution', 'Verification', 'Total tokens'],
      rows,
      numericColumns: [2, 3, 4, 5, 6, 7, 8],
    }),
    seedsTable,
  ]);
}
