import { escapeHtml } from '../escape-html.js';
import { findings } from '../findings.js';
import { percent, percentInterval, points } from '../format-values.js';
import type { DemoResults } from '../results-schema.js';
import { section } from './section.js';

/** Headline numbers as cards, then every hoped-for result with whether this run shows it. */
export function summarySection(results: DemoResults): string {
  const { rm, bon, grpo } = results;
  const cards: { label: string; value: string; detail: string }[] = [
    {
      label: 'Reward model, held-out pairwise accuracy',
      value: percent(rm.pairAccuracy.overall.accuracy),
      detail: `95% CI ${percentInterval(rm.pairAccuracy.overall.ci)}; ${Object.entries(rm.baselines)
        .map(([kind, baseline]) => `${kind} ${percent(baseline.pairAccuracy.overall.accuracy)}`)
        .join(', ')}`,
    },
  ];
  const rmStrategy = bon.strategies.rm;
  const single = bon.strategies.single;
  if (rmStrategy) {
    cards.push({
      label: `Best-of-${bon.n} with the reward model`,
      value: percent(rmStrategy.accuracy),
      detail: single ? `single plan ${percent(single.accuracy)} (${points(rmStrategy.accuracy - single.accuracy)} points)` : `95% CI ${percentInterval(rmStrategy.ci)}`,
    });
  }
  cards.push({
    label: 'GRPO, rm vs execution reward',
    value: `${percent(grpo.rm.accuracy)} vs ${percent(grpo.execution.accuracy)}`,
    detail: `from ${percent(grpo.baseAccuracy)}; training tokens ${(grpo.execution.trainingTokens.total / Math.max(1, grpo.rm.trainingTokens.total)).toFixed(1)}x fewer with rm`,
  });
  const cardHtml = cards
    .map((card) => `<div class="card"><div class="card-label">${escapeHtml(card.label)}</div><div class="card-value">${escapeHtml(card.value)}</div><div class="card-detail">${escapeHtml(card.detail)}</div></div>`)
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
