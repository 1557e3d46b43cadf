import { escapeHtml } from '../escape-html.js';
import { findings } from '../findings.js';
import { percent, percentInterval, points } from '../format-values.js';
import { TOO_FEW_TO_JUDGE, tooFewToJudge } from '../../rm/index.js';
import type { DemoResults } from '../results-schema.js';
import { section } from './section.js';

/** One headline card; `tooFew` says why its sample is too small for a verdict (`tooFewToJudge`). */
interface Card {
  label: string;
  value: string;
  detail: string;
  tooFew?: string | undefined;
}

/**
 * The reward model's headline: accuracy on held-out valid-vs-valid outcome pairs, the figure the
 * terminal summary and every verdict use (version 2 results on); version 1 results have only the
 * accuracy over every held-out pair, labelled as such.
 */
function rewardModelCard(results: DemoResults): Card {
  const { rm } = results;
  const validPairs = rm.outcomePairs?.validVsValid;
  if (validPairs === undefined) {
    return {
      label: 'Reward model, held-out pairs of every source',
      value: percent(rm.pairAccuracy.overall.accuracy),
      detail: `95% CI ${percentInterval(rm.pairAccuracy.overall.ci)} on ${rm.pairAccuracy.overall.total.toLocaleString('en-US')} pairs of ${rm.heldOut.tasks} held-out tasks; ${Object.entries(rm.baselines)
        .map(([kind, baseline]) => `${kind} ${percent(baseline.pairAccuracy.overall.accuracy)}`)
        .join(', ')}`,
      tooFew: tooFewToJudge({ tasks: rm.heldOut.tasks, pairs: rm.pairAccuracy.overall.total }),
    };
  }
  const baselines = Object.entries(rm.baselines).flatMap(([kind, baseline]) => (baseline.outcomePairs === undefined ? [] : [`${kind} ${percent(baseline.outcomePairs.validVsValid.accuracy)}`]));
  return {
    label: 'Reward model, held-out valid-vs-valid outcome pairs',
    value: percent(validPairs.accuracy),
    detail: `95% CI ${percentInterval(validPairs.ci)} on ${validPairs.total.toLocaleString('en-US')} pairs of ${rm.heldOut.tasks} held-out tasks${baselines.length === 0 ? '' : `; ${baselines.join(', ')}`}`,
    tooFew: tooFewToJudge({ tasks: rm.heldOut.tasks, pairs: validPairs.total }),
  };
}

/** The held-out tasks GRPO's accuracy is measured on, when the run's configuration records them (`sizes.grpo.evalTasks`). */
function grpoEvaluationTasks(results: DemoResults): number | undefined {
  const sizes = results.config.sizes;
  if (typeof sizes !== 'object' || sizes === null) return undefined;
  const grpo = (sizes as { grpo?: unknown }).grpo;
  const evalTasks = typeof grpo === 'object' && grpo !== null ? (grpo as { evalTasks?: unknown }).evalTasks : undefined;
  return typeof evalTasks === 'number' && Number.isInteger(evalTasks) ? evalTasks : undefined;
}

/** Headline numbers as cards (each with its sample size, marked when too small to judge), then every hoped-for result with whether this run shows it. */
export function summarySection(results: DemoResults): string {
  const { bon, grpo } = results;
  const cards: Card[] = [rewardModelCard(results)];
  const rmStrategy = bon.strategies.rm;
  const single = bon.strategies.single;
  if (rmStrategy) {
    cards.push({
      label: `Best-of-${bon.n} with the reward model`,
      value: percent(rmStrategy.accuracy),
      detail: `${bon.tasks.toLocaleString('en-US')} test tasks; ${single ? `single plan ${percent(single.accuracy)} (${points(rmStrategy.accuracy - single.accuracy)} points)` : `95% CI ${percentInterval(rmStrategy.ci)}`}`,
      tooFew: tooFewToJudge({ tasks: bon.tasks }),
    });
  }
  const evalTasks = grpoEvaluationTasks(results);
  cards.push({
    label: 'GRPO, rm vs execution reward',
    value: `${percent(grpo.rm.accuracy)} vs ${percent(grpo.execution.accuracy)}`,
    detail: `${evalTasks === undefined ? '' : `${evalTasks.toLocaleString('en-US')} held-out tasks; `}from ${percent(grpo.baseAccuracy)}; GRPO training tokens ${(grpo.execution.trainingTokens.total / Math.max(1, grpo.rm.trainingTokens.total)).toFixed(1)}x fewer with rm${results.bill === undefined ? '' : `; with the reward model’s whole bill ${(results.bill.rewardModel.total.total / Math.max(1, results.bill.execution.total.total)).toFixed(1)}x execution’s`}`,
    tooFew: evalTasks === undefined ? undefined : tooFewToJudge({ tasks: evalTasks }),
  });
  const cardHtml = cards
    .map(
      (card) =>
        `<div class="card${card.tooFew === undefined ? '' : ' small-sample'}"><div class="card-label">${escapeHtml(card.label)}</div><div class="card-value">${escapeHtml(card.value)}</div><div class="card-detail">${escapeHtml(card.detail)}</div>${
          card.tooFew === undefined ? '' : `<div class="card-too-few">${escapeHtml(`${TOO_FEW_TO_JUDGE}: ${card.tooFew}`)}</div>`
        }</div>`,
    )
    .join('\n');
  const items = findings(results)
    .map((finding) => {
      const className = finding.verdict === 'held' ? 'good' : finding.verdict === 'did not hold' ? 'bad' : 'unknown';
      const mark = finding.verdict;
      return `<li class="finding ${className}"><span class="finding-mark">${escapeHtml(mark)}</span><span class="finding-text"><span class="finding-hope">${escapeHtml(finding.hope)}</span> <span class="finding-measured">${escapeHtml(finding.measured)}</span></span></li>`;
    })
    .join('\n');
  return section('summary', 'Summary', [
    `<div class="cards">${cardHtml}</div>`,
    '<h3>What we hoped to see, and what this run shows</h3>',
    '<p class="note">These expectations were written down before any run (issues 5–7 and 13) and are reported either way.</p>',
    `<ul class="findings">${items}</ul>`,
  ]);
}
