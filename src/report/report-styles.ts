import { CHART_FONT } from './render-chart.js';

/**
 * The page's only stylesheet, inlined (no network). A single readable column about 70 characters
 * wide for prose, wider for charts and tables; tabular figures in number columns; colours that
 * keep 4.5:1 contrast on white; print-friendly.
 */
export const REPORT_STYLES = `
:root { --text: #111827; --muted: #4b5563; --line: #e5e7eb; --soft: #f9fafb; --accent: #0b5cad; --good: #046c4e; --good-bg: #ecfdf5; --bad: #b42318; --bad-bg: #fef3f2; --unknown-bg: #f3f4f6; }
* { box-sizing: border-box; }
html { font-size: 16px; -webkit-text-size-adjust: 100%; }
body { margin: 0; color: var(--text); background: #fff; font-family: ${CHART_FONT}; line-height: 1.55; }
.page { max-width: 1080px; margin: 0 auto; padding: 2rem 1.5rem 4rem; }
header.report-header { padding-bottom: 0.5rem; }
h1 { font-size: 1.9rem; line-height: 1.2; margin: 0 0 0.4rem; letter-spacing: -0.01em; }
h2 { font-size: 1.35rem; margin: 2.75rem 0 0.75rem; padding-top: 0.5rem; border-top: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.75rem 0 0.5rem; }
p, ul { max-width: 72ch; }
p { margin: 0.5rem 0 0.9rem; }
a { color: var(--accent); }
a:focus-visible, summary:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; background: var(--soft); padding: 0.05em 0.3em; border-radius: 3px; }
.lede { font-size: 1.05rem; color: var(--muted); margin: 0.25rem 0 0.75rem; }
.meta { display: flex; flex-wrap: wrap; gap: 0.35rem 1.5rem; margin: 0; padding: 0; list-style: none; color: var(--muted); font-size: 0.9rem; }
.meta strong { color: var(--text); font-weight: 600; }
nav.toc { margin: 1rem 0 0; font-size: 0.92rem; }
nav.toc ol { display: flex; flex-wrap: wrap; gap: 0.25rem 1.1rem; list-style: none; margin: 0; padding: 0; }
.note { color: var(--muted); font-size: 0.92rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); gap: 0.9rem; margin: 0.75rem 0 1.25rem; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 0.85rem 1rem; background: var(--soft); }
.card-label { font-size: 0.82rem; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
.card-value { font-size: 1.7rem; font-weight: 650; margin: 0.15rem 0; font-variant-numeric: tabular-nums; }
.card-detail { font-size: 0.88rem; color: var(--muted); }
.card.small-sample { border-color: #d97706; border-style: dashed; }
.card-too-few { font-size: 0.84rem; font-weight: 600; color: #92400e; margin-top: 0.35rem; }
.banner { border: 1px dashed #d97706; background: #fffbeb; color: #78350f; border-radius: 6px; padding: 0.5rem 0.8rem; margin: 0.75rem 0 0; max-width: none; }
ul.findings { list-style: none; padding: 0; margin: 0.5rem 0; max-width: none; }
li.finding { display: flex; gap: 0.75rem; align-items: baseline; padding: 0.5rem 0.75rem; border-radius: 6px; margin: 0.35rem 0; }
li.finding.good { background: var(--good-bg); }
li.finding.bad { background: var(--bad-bg); }
li.finding.unknown { background: var(--unknown-bg); }
.finding-mark { flex: 0 0 7.5rem; font-size: 0.78rem; font-weight: 700; text-transform: uppercase; letter-spacing: 0.04em; }
.good .finding-mark { color: var(--good); }
.bad .finding-mark { color: var(--bad); }
.unknown .finding-mark { color: var(--muted); }
.finding-hope { font-weight: 600; }
.finding-measured { color: #374151; }
ul.verdicts { padding-left: 1.2rem; }
ul.verdicts li.good::marker { content: '✓  '; color: var(--good); }
ul.verdicts li.bad::marker { content: '✗  '; color: var(--bad); }
/* display: table lets the caption wrap at the chart's width instead of widening the figure. */
figure.chart { display: table; margin: 1.25rem 0 1.5rem; padding: 0; }
figure.chart > figcaption { display: table-caption; caption-side: bottom; }
.figure-row { display: flex; flex-wrap: wrap; gap: 0 2.5rem; align-items: flex-start; }
.figure-row > figure.chart { flex: 0 1 auto; }
.chart-title { font-weight: 600; font-size: 0.98rem; margin-bottom: 0.4rem; }
.chart-body svg { display: block; max-width: 100%; height: auto; }
figcaption { font-size: 0.86rem; color: var(--muted); max-width: 68ch; margin-top: 0.35rem; }
.table-wrap { overflow-x: auto; margin: 0.75rem 0 1.5rem; }
table { border-collapse: collapse; font-size: 0.9rem; min-width: 50%; }
caption { text-align: left; font-size: 0.86rem; color: var(--muted); padding-bottom: 0.4rem; caption-side: top; }
th, td { padding: 0.35rem 0.75rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.03em; color: var(--muted); border-bottom: 2px solid #d1d5db; white-space: nowrap; }
tbody th { font-weight: 600; min-width: 7rem; }
tbody tr:hover { background: var(--soft); }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.strong { font-weight: 650; }
.muted { color: var(--muted); font-weight: 400; }
td.good { color: var(--good); font-weight: 600; }
td.bad { color: var(--bad); font-weight: 600; }
details { margin: 0.5rem 0 1rem; }
summary { cursor: pointer; color: var(--accent); font-size: 0.95rem; }
pre.config { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem 1rem; font-size: 0.82rem; overflow-x: auto; max-height: 28rem; }
footer { margin-top: 3rem; padding-top: 1rem; border-top: 1px solid var(--line); color: var(--muted); font-size: 0.85rem; }
@media print { .page { max-width: none; padding: 0; } h2 { break-before: auto; } figure.chart, table { break-inside: avoid; } details { display: block; } }
`;
