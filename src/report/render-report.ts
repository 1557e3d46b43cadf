import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIN_VERDICT_PAIRS, MIN_VERDICT_TASKS, TOO_FEW_TO_JUDGE } from '../rm/index.js';
import { escapeHtml } from './escape-html.js';
import { duration } from './format-values.js';
import { REPORT_STYLES } from './report-styles.js';
import type { DemoResults } from './results-schema.js';
import { billSection } from './sections/bill-section.js';
import { bonSection } from './sections/bon-section.js';
import { curveSection } from './sections/curve-section.js';
import { environmentSection } from './sections/environment-section.js';
import { familiesSection } from './sections/families-section.js';
import { grpoSection } from './sections/grpo-section.js';
import { loopSection } from './sections/loop-section.js';
import { pairsSection } from './sections/pairs-section.js';
import { rmSection } from './sections/rm-section.js';
import { section } from './sections/section.js';
import { sourcesSection } from './sections/sources-section.js';
import { summarySection } from './sections/summary-section.js';

/** docs/sim.md of this package: two levels up from both src/report and dist/report. */
const SIM_DOC_PATH = fileURLToPath(new URL('../../docs/sim.md', import.meta.url));

export interface RenderReportOptions {
  /** Directory the page is written to (`<outDir>/report.html`); relative links start here. */
  outDir: string;
  /** Link to the environment's documentation. @default docs/sim.md of this package, relative to `outDir` */
  simDocHref?: string;
}

/** The page never loads anything: no scripts, no fetches; styles and SVG are inline. */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/**
 * The experiment report as one self-contained HTML page: inline CSS, charts as inline SVG
 * rendered in Node from Vega-Lite specs, the numbers in tables, no scripts and no network.
 * Every string from `results` is escaped.
 *
 * @example
 * const html = await renderReportHtml(results, { outDir: 'demo-out' });
 */
export async function renderReportHtml(results: DemoResults, options: RenderReportOptions): Promise<string> {
  const simDocHref = options.simDocHref ?? relativeHref(options.outDir, SIM_DOC_PATH);
  const sections: { id: string; title: string; html: string }[] = [
    { id: 'summary', title: 'Summary', html: summarySection(results) },
    { id: 'bon', title: 'Best-of-N', html: await bonSection(results.bon) },
    { id: 'grpo', title: 'GRPO', html: await grpoSection(results.grpo) },
    ...(results.bill === undefined ? [] : [{ id: 'bill', title: 'The whole bill', html: billSection(results.bill) }]),
    { id: 'rm', title: 'Reward model', html: await rmSection(results.rm) },
    ...(results.learningCurve === undefined ? [] : [{ id: 'curve', title: 'Learning curve', html: curveSection(results.learningCurve) }]),
    { id: 'pairs', title: 'Pairs', html: await pairsSection(results.pairs) },
    ...(results.reliability !== undefined || results.labelFree !== undefined ? [{ id: 'sources', title: 'Sources and labels', html: sourcesSection(results) }] : []),
    { id: 'families', title: 'Per family', html: familiesSection(results.families, results.bon.templateReferences, results.bon.templateRouter) },
    ...(results.loop && results.loop.length > 0 ? [{ id: 'loop', title: 'Loop', html: await loopSection(results.loop) }] : []),
    { id: 'environment', title: 'The environment', html: environmentSection(results, simDocHref) },
    { id: 'config', title: 'Configuration', html: configSection(results) },
  ];
  const title = `orchrm report: ${results.scenario} scenario, seed ${results.seed}`;
  const meta = [
    ['Scenario', results.scenario],
    ...(results.scenarioSeed === undefined ? [] : [['Scenario seed (draws the tasks)', String(results.scenarioSeed)]]),
    ['Seed', String(results.seed)],
    ...(results.version === undefined ? [] : [['orchrm', results.version]]),
    ...(results.durationMs === undefined ? [] : [['Run time', duration(results.durationMs)]]),
    ['Held-out tasks', String(results.rm.heldOut.tasks)],
    ...(results.rm.outcomePairs === undefined ? [] : [['Held-out valid-vs-valid outcome pairs', results.rm.outcomePairs.validVsValid.total.toLocaleString('en-US')]]),
    ['Best-of-N test tasks', results.bon.tasks.toLocaleString('en-US')],
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CONTENT_SECURITY_POLICY)}">
<meta name="generator" content="orchrm report">
<title>${escapeHtml(title)}</title>
<style>${REPORT_STYLES}</style>
</head>
<body>
<div class="page">
<header class="report-header">
<h1>Orchestration reward model: experiment report</h1>
<p class="lede">Plans scored before they run: episodes collected, win-lose pairs mined from them (by label-free sources, and by sources that read grades), a Bradley-Terry reward model trained on them, then used to pick among sampled plans (Best-of-N) and to train the orchestrator (GRPO), each against its baselines.</p>
<ul class="meta">${meta.map(([label, value]) => `<li>${escapeHtml(label as string)}: <strong>${escapeHtml(value as string)}</strong></li>`).join('')}</ul>
${quickRunBanner(results)}
<nav class="toc" aria-label="Sections"><ol>${sections.map((entry) => `<li><a href="#${escapeHtml(entry.id)}">${escapeHtml(entry.title)}</a></li>`).join('')}</ol></nav>
</header>
<main>
${sections.map((entry) => entry.html).join('\n')}
</main>
<footer>Generated by <code>orchrm report</code> from <code>results.json</code> (schema version ${results.schemaVersion}). Charts are static SVG rendered with Vega-Lite; every number in a chart is also in a table.</footer>
</div>
</body>
</html>
`;
}

/**
 * Writes `<outDir>/report.html` (creating the directory) and returns its path.
 *
 * @example
 * const { path } = await renderReport(results, { outDir: 'demo-out' }); // 'demo-out/report.html'
 */
export async function renderReport(results: DemoResults, options: RenderReportOptions): Promise<{ path: string }> {
  const html = await renderReportHtml(results, options);
  await mkdir(options.outDir, { recursive: true });
  const path = join(options.outDir, 'report.html');
  await writeFile(path, html);
  return { path };
}

/**
 * Says, above everything, that a quick run (`orchrm demo --quick`) is a first look: its sample
 * sizes, and that verdicts on samples this small read "too few to judge".
 */
function quickRunBanner(results: DemoResults): string {
  if (results.config.quick !== true) return '';
  const pairs = results.rm.outcomePairs?.validVsValid.total;
  return `<p class="banner" id="quick-run"><strong>Quick run</strong> (orchrm demo --quick): sizes chosen to finish in seconds, not to judge. ${escapeHtml(
    `${results.rm.heldOut.tasks} held-out tasks${pairs === undefined ? '' : ` (${pairs.toLocaleString('en-US')} valid-vs-valid outcome pairs)`} and ${results.bon.tasks} Best-of-N test tasks`,
  )}: read every figure with its interval; results on fewer than ${MIN_VERDICT_TASKS} tasks or ${MIN_VERDICT_PAIRS} pairs are marked ${escapeHtml(TOO_FEW_TO_JUDGE)}. Run the full demo for conclusions.</p>`;
}

function configSection(results: DemoResults): string {
  return section('config', 'Configuration', [
    `<p>Everything needed to reproduce this run: scenario <code>${escapeHtml(results.scenario)}</code>, seed <code>${results.seed}</code>, and the configuration below as recorded in <code>results.json</code>.</p>`,
    `<details><summary>Show the configuration</summary><pre class="config">${escapeHtml(JSON.stringify(results.config, null, 2))}</pre></details>`,
  ]);
}

/** A relative URL from `fromDir` to `target`, with each path segment percent-encoded. */
function relativeHref(fromDir: string, target: string): string {
  return relative(fromDir, target).split(sep).map(encodeURIComponent).join('/');
}
