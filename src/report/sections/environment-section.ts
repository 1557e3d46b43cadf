import { escapeHtml } from '../escape-html.js';
import { decimal, percent } from '../format-values.js';
import { htmlTable } from '../html-table.js';
import type { DemoResults } from '../results-schema.js';
import { section } from './section.js';

/**
 * What the controlled environment is and what it cannot show: a short, honest summary of
 * docs/sim.md (§1, §2, §10) linking to it, and the scenario's calibration when measured.
 */
export function environmentSection(results: DemoResults, simDocHref: string): string {
  const href = escapeHtml(simDocHref);
  const link = (anchor: string, text: string) => `<a href="${href}${escapeHtml(anchor)}">${escapeHtml(text)}</a>`;
  const scenario = escapeHtml(results.scenario);
  return section('environment', 'What this environment is and what it cannot show', [
    `<p>These results come from orchrm’s controlled environment (scenario <code>${scenario}</code>), not from real language models. Task structure, arithmetic, BM25 retrieval, plan parsing and execution, grading and token counting are real; only the <em>language competence</em> of each model call is simulated: whether each reasoning step succeeds follows a documented parametric model, failed steps give plausible wrong values that flow through the real computation, and errors are partly correlated across agents on the same task. The orchestrator is a small trainable stochastic policy that reads only the task text. The full description is in ${link('', 'docs/sim.md')}.</p>`,
    '<p>It is built so that plan choice matters, the best plan depends on the task, a good plan is not trivial to find, and executing a plan costs far more than writing it; the calibration below measures each. It also has a scientific control (<code>control</code>) in which no plan can change accuracy: an effect found there is an artefact.</p>',
    '<p><strong>What it cannot show.</strong> Results transfer to real LLM systems qualitatively at best; levels of accuracy and tokens are consequences of the knobs, not predictions.</p>',
    '<ul>',
    '<li>Competence depends only on a few covariates (step difficulty, position, distractors, planted notes, temperature, evidence); there is no content-dependent difficulty and no knowledge a model has. Temperature only shifts a logit, and error correlation is one Gaussian copula.</li>',
    '<li>Real failure modes are absent: sub-agents never drift in format, ramble, refuse or run out of tokens; search queries are oracle-like; the critic and debaters follow fixed rates.</li>',
    '<li>The plan space is small (three granularities, one block shared by non-final nodes, shared parameters) and texts come from templates, so families are trivially separable and “which plan for which task” is easier to learn than with real questions. Reward-model results here are about ranking within that space.</li>',
    `<li>Known leaks remain on <code>control</code> (search-heavy plans score a few points higher on multihop), and reasoning lines carry template signatures of failure that a process-level reader could exploit.</li>`,
    '<li>Hidden reasoning is a constant 1,000 tokens per step; calibration figures are single-seed estimates with about ±5-point per-family standard errors; the default knobs were revised until the calibration targets were met (the targets were fixed first; no reward-model or Best-of-N result was a target).</li>',
    '</ul>',
    `<p>Details: ${link('#2-what-is-real-and-what-is-simulated', 'what is real and what is simulated')} · ${link('#8-calibration', 'calibration')} · ${link('#10-what-this-environment-cannot-show', 'what this environment cannot show')}.</p>`,
    results.calibration === undefined ? '<p class="note">This run did not measure the scenario’s calibration (<code>orchrm sim calibrate</code> does).</p>' : calibrationTable(results.calibration),
  ]);
}

function calibrationTable(calibration: NonNullable<DemoResults['calibration']>): string {
  const perFamily = Object.entries(calibration.bestKindPerFamily)
    .map(([family, best]) => `${family}: ${best.kind} ${percent(best.accuracy)}`)
    .join('; ');
  return htmlTable({
    caption: `Scenario calibration (${calibration.scenario}, seed ${calibration.seed}, ${calibration.tasks} test tasks): does plan choice matter here?`,
    columns: ['Measure', 'Value', 'What it says'],
    numericColumns: [1],
    rows: [
      ['Best fixed plan gap', `${decimal(calibration.bestFixedPlanGap, 1)} points`, 'Best plan kind per family over the best single kind everywhere: the best plan depends on the task.'],
      ['Base vs oracle gap', `${decimal(calibration.baseVsOracleGap, 1)} points`, `Base policy ${percent(calibration.base.accuracy)} vs any of ${calibration.base.plansPerTask} plans correct ${percent(calibration.base.oracleAtN)}: good plans are not trivial to find.`],
      ['Execution token spread', `${decimal(calibration.execTokenSpread, 1)}x`, 'Costliest over cheapest executing plan kind.'],
      ['Plan token share', decimal(calibration.planTokenShare, 3), 'Plan-writing tokens over execution tokens: executing is the expensive part.'],
      ['Best single kind', `${calibration.bestSingleKind.kind} ${percent(calibration.bestSingleKind.accuracy)}`, `Per family: ${perFamily}.`],
    ],
  });
}
