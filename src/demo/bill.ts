import type { Bill, BillStage, TokenSplit } from '../report/index.js';
import { addTokenSplits } from './token-split.js';

/** What each stage of the demo counted, in tokens by role, and what the GRPO runs gained. */
export interface BillCounts {
  /** Execution-reward training of the stronger checkpoint the collection samples from (`improveByExecution`'s rounds). */
  strongCheckpoint: TokenSplit;
  /** The collection the GRPO reward model read: every collection run (both checkpoints and the templates), or a share of its tasks (`collectionShare`). */
  collection: TokenSplit;
  /** When the GRPO reward model read a share of the collection's training tasks: the share, its tasks and the whole collection's tokens. */
  collectionShare?: { share: number; tasks: number; wholeCollection: TokenSplit };
  /** One GRPO run with the reward model's reward (mean over seeds): plan writing and the model's reads. */
  rmGrpo: TokenSplit;
  /** One GRPO run with execution reward (mean over seeds): plan writing and execution. */
  executionGrpo: TokenSplit;
  /** Mean held-out accuracy after GRPO minus the start's, per reward. */
  gain: { rm: number; execution: number };
}

/** Why the stronger checkpoint is listed apart: a user who trains orchestrators has checkpoints; the simulator has to make one. */
export const STRONG_CHECKPOINT_APART =
  'a user who trains an orchestrator already has earlier and later checkpoints to collect from; the simulator has to make one, with execution reward';

/** What neither route's bill counts, and where it is reported instead. */
export const BILL_LEAVES_OUT = [
  'held-out evaluation of the GRPO checkpoints (grpo.*.evaluationTokens), the same for both routes',
  'Best-of-N selection on test tasks, priced per task in bon.strategies',
  'the label-free and outcome-only comparison models, trained on the same collection (no tokens: CPU only)',
  'reward-model training itself (CPU only, no model tokens)',
];

/**
 * The whole bill of both routes to a trained orchestrator, from the stages' own counts: the
 * reward-model route pays once for the stronger checkpoint (listed apart, see
 * `STRONG_CHECKPOINT_APART`) and the collection, then per GRPO run for writing plans and the
 * model's reads; the execution route pays per GRPO run for writing and executing every plan. Its
 * break-even is the fewest runs k with once + k * rmRun <= k * executionRun.
 *
 * @example
 * demoBill({ strongCheckpoint, collection, rmGrpo, executionGrpo, gain: { rm: 0.04, execution: 0.05 } }).breakEvenRuns
 */
export function demoBill(counts: BillCounts): Bill {
  const rmStages: BillStage[] = [
    { stage: 'strong checkpoint', what: 'execution-reward training of the checkpoint the collection samples from (plans written and executed)', tokens: counts.strongCheckpoint, paid: 'once', apart: STRONG_CHECKPOINT_APART },
    {
      stage: 'collection',
      what:
        counts.collectionShare === undefined
          ? 'the episodes the reward model is trained on: plans written and executed, from base and strong, and the templates'
          : `the episodes of the ${counts.collectionShare.tasks} train tasks (${formatShare(counts.collectionShare.share)} of the collection's training tasks) the GRPO reward model is trained on: plans written and executed, from base and strong, and the templates where they ran`,
      tokens: counts.collection,
      paid: 'once',
    },
    { stage: 'grpo', what: 'one GRPO run (mean over seeds): plans written, scored by the reward model (its reads are verification tokens)', tokens: counts.rmGrpo, paid: 'per-run' },
  ];
  const executionStages: BillStage[] = [
    { stage: 'grpo', what: 'one GRPO run (mean over seeds): plans written and every one executed and graded', tokens: counts.executionGrpo, paid: 'per-run' },
  ];
  const rewardModel = route(rmStages, counts.gain.rm);
  const execution = route(executionStages, counts.gain.execution);
  const savingPerRun = counts.executionGrpo.total - counts.rmGrpo.total;
  const once = (stages: readonly BillStage[], withApart: boolean) => addTokenSplits(...stages.filter((stage) => stage.paid === 'once' && (withApart || stage.apart === undefined)).map((stage) => stage.tokens)).total;
  return {
    rewardModel,
    execution,
    savingPerRun,
    breakEvenRuns: breakEven(once(rmStages, true), savingPerRun),
    breakEvenRunsWithoutApart: breakEven(once(rmStages, false), savingPerRun),
    gainShare: counts.gain.execution > 0 ? counts.gain.rm / counts.gain.execution : null,
    leavesOut: [
      ...(counts.collectionShare === undefined
        ? []
        : [`the rest of the collection (${formatMillions(counts.collectionShare.wholeCollection.total - counts.collection.total)} of its ${formatMillions(counts.collectionShare.wholeCollection.total)} tokens), collected for Best-of-N's reward model and never read by the GRPO reward model`]),
      ...BILL_LEAVES_OUT,
    ],
  };
}

const formatShare = (share: number) => `${Number((share * 100).toFixed(1))}%`;
const formatMillions = (tokens: number) => `${(tokens / 1e6).toFixed(2)}M`;

function route(stages: BillStage[], accuracyGain: number): Bill['rewardModel'] {
  return {
    stages,
    total: addTokenSplits(...stages.map((stage) => stage.tokens)),
    totalWithoutApart: addTokenSplits(...stages.filter((stage) => stage.apart === undefined).map((stage) => stage.tokens)),
    accuracyGain,
  };
}

/** Fewest runs k >= 1 with `once` <= k * `savingPerRun`; null when a run saves nothing. */
function breakEven(once: number, savingPerRun: number): number | null {
  if (savingPerRun <= 0) return null;
  return Math.max(1, Math.ceil(once / savingPerRun));
}
