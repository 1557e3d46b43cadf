import { CHART_FONT } from '../render-chart.js';

/**
 * The viewer's only stylesheet, inlined: a task list on the left, the task on the right with its
 * plans side by side (each scrolls on its own when wide), colours that keep 4.5:1 contrast.
 */
export const VIEWER_STYLES = `
:root { --text: #111827; --muted: #4b5563; --line: #e5e7eb; --soft: #f9fafb; --accent: #0b5cad; --good: #046c4e; --good-bg: #ecfdf5; --bad: #b42318; --bad-bg: #fef3f2; --pick: #6d28d9; --pick-bg: #f5f3ff; }
* { box-sizing: border-box; }
html { font-size: 15px; }
body { margin: 0; color: var(--text); background: #fff; font-family: ${CHART_FONT}; line-height: 1.45; }
header.top { padding: 0.6rem 1.2rem; border-bottom: 1px solid var(--line); background: var(--soft); }
h1 { font-size: 1.2rem; margin: 0; }
h1 .database { font-weight: 400; color: var(--muted); margin-left: 0.5rem; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.95rem; }
h2 { font-size: 1.25rem; margin: 0 0 0.2rem; }
h3 { font-size: 1.02rem; margin: 1.4rem 0 0.5rem; }
h4 { font-size: 0.9rem; margin: 0.9rem 0 0.3rem; color: var(--muted); text-transform: uppercase; letter-spacing: 0.03em; }
a { color: var(--accent); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.88em; }
.note { color: var(--muted); font-size: 0.88rem; margin: 0.3rem 0; }
.error { color: var(--bad); background: var(--bad-bg); padding: 0.35rem 0.6rem; border-radius: 5px; white-space: pre-wrap; overflow-wrap: anywhere; }
.layout { display: grid; grid-template-columns: minmax(260px, 340px) 1fr; min-height: calc(100vh - 4rem); }
.sidebar { border-right: 1px solid var(--line); padding: 0.7rem; overflow-y: auto; max-height: calc(100vh - 4rem); position: sticky; top: 0; }
.filters { display: grid; grid-template-columns: 1fr 1fr; gap: 0.4rem; margin-bottom: 0.6rem; }
.filter { display: flex; flex-direction: column; font-size: 0.8rem; color: var(--muted); }
.filter.search { grid-column: 1 / -1; }
.filter select, .filter input { font: inherit; font-size: 0.88rem; padding: 0.25rem; border: 1px solid #d1d5db; border-radius: 4px; color: var(--text); background: #fff; }
.task-list { list-style: none; margin: 0; padding: 0; }
.task-item { display: block; padding: 0.45rem 0.5rem; border-radius: 6px; text-decoration: none; color: inherit; border: 1px solid transparent; }
.task-item:hover { background: var(--soft); }
.task-item.selected { border-color: var(--accent); background: #eff6ff; }
.task-item-head { display: flex; justify-content: space-between; gap: 0.4rem; align-items: baseline; }
.task-id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.78rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.task-item-meta { font-size: 0.78rem; color: var(--muted); }
.task-question { font-size: 0.84rem; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; overflow-wrap: anywhere; }
.empty { color: var(--muted); padding: 0.5rem; }
.pager { display: flex; justify-content: space-between; align-items: center; gap: 0.4rem; margin-top: 0.6rem; font-size: 0.84rem; }
.pager button, .compare-controls button { font: inherit; font-size: 0.84rem; padding: 0.2rem 0.6rem; border: 1px solid #d1d5db; border-radius: 4px; background: #fff; cursor: pointer; }
.pager button:disabled { color: #9ca3af; cursor: default; }
.task { padding: 0.9rem 1.2rem 3rem; min-width: 0; }
.task-meta { color: var(--muted); font-size: 0.88rem; }
pre.text, pre { white-space: pre-wrap; overflow-wrap: anywhere; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.82rem; background: var(--soft); border: 1px solid var(--line); border-radius: 5px; padding: 0.45rem 0.6rem; margin: 0.25rem 0; max-height: 24rem; overflow-y: auto; }
pre.question-text { font-family: inherit; font-size: 0.92rem; max-height: 12rem; }
.gold { margin: 0.4rem 0; }
.badge { display: inline-block; font-size: 0.72rem; font-weight: 650; padding: 0.05rem 0.4rem; border-radius: 999px; background: #f3f4f6; color: var(--muted); white-space: nowrap; vertical-align: middle; }
.badge.good, .badge.all-correct { background: var(--good-bg); color: var(--good); }
.badge.bad, .badge.none-correct { background: var(--bad-bg); color: var(--bad); }
.badge.some-correct { background: #fffbeb; color: #92400e; }
.badge.pick { background: var(--pick-bg); color: var(--pick); }
.plans { display: grid; grid-auto-flow: column; grid-auto-columns: minmax(330px, 1fr); gap: 0.8rem; overflow-x: auto; padding-bottom: 0.4rem; align-items: start; }
.plan { border: 1px solid var(--line); border-radius: 8px; padding: 0.6rem 0.7rem; background: #fff; min-width: 0; }
.plan.selected { border-color: var(--accent); box-shadow: 0 0 0 2px #bfdbfe; }
.plan-head { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
.plan-title { font-weight: 700; }
.plan-meta, .plan-tokens { font-size: 0.8rem; color: var(--muted); }
.score { font-size: 0.9rem; margin: 0.2rem 0; }
.graph { overflow-x: auto; margin: 0.5rem 0; }
.graph.invalid, .graph.direct { font-size: 0.88rem; color: var(--muted); background: var(--soft); padding: 0.5rem; border-radius: 5px; }
svg.dag { display: block; }
svg.dag .edge { fill: none; stroke: #6b7280; stroke-width: 1.4; }
svg.dag .node rect { stroke: #374151; stroke-width: 1.2; }
svg.dag .node.answer rect { stroke-width: 3; }
svg.dag .node.failed rect { stroke: var(--bad); stroke-dasharray: 5 3; stroke-width: 2; }
svg.dag .node.not-run rect { stroke: #9ca3af; stroke-dasharray: 3 3; opacity: 0.7; }
svg.dag .node.selected rect { stroke: var(--accent); stroke-width: 3.5; }
svg.dag .node[role=button] { cursor: pointer; }
svg.dag .node[role=button]:focus { outline: none; }
svg.dag .node[role=button]:focus rect, svg.dag .node[role=button]:hover rect { stroke: var(--accent); }
svg.dag text { font-size: 11.5px; fill: #111827; font-family: ${CHART_FONT}; }
svg.dag .node-name { font-weight: 700; }
svg.dag .node-tokens, svg.dag .node-answer-mark { fill: #374151; font-size: 10.5px; }
.final { font-size: 0.9rem; overflow-wrap: anywhere; }
.reason { font-size: 0.84rem; color: var(--bad); }
.diagnostics { font-size: 0.82rem; color: var(--bad); padding-left: 1.1rem; }
details { margin: 0.35rem 0; }
summary { cursor: pointer; color: var(--accent); font-size: 0.88rem; }
.explanation .explain-sum { font-size: 0.84rem; margin: 0.2rem 0; }
.contributions { list-style: none; padding: 0; margin: 0.2rem 0; font-size: 0.8rem; }
.contributions li { position: relative; display: flex; gap: 0.5rem; padding: 0.1rem 0.3rem; overflow: hidden; }
.contributions .bar { position: absolute; left: 0; top: 2px; bottom: 2px; border-radius: 3px; z-index: 0; }
.contributions li.up .bar { background: #dcfce7; }
.contributions li.down .bar { background: #fee2e2; }
.contributions .contribution, .contributions .feature { position: relative; z-index: 1; }
.contributions .contribution { font-variant-numeric: tabular-nums; min-width: 4.2rem; text-align: right; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.contributions .feature { overflow-wrap: anywhere; }
.node-panel { margin-top: 1rem; border-top: 1px solid var(--line); }
.node-panel:empty { display: none; }
.node-meta { font-size: 0.86rem; color: var(--muted); }
.calls { padding-left: 1.2rem; }
.call.failed summary { color: var(--bad); }
.message-role { font-size: 0.74rem; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; margin-top: 0.3rem; }
.critiques, .search-steps { padding-left: 1.2rem; }
.documents { font-size: 0.84rem; }
.table-wrap { overflow-x: auto; margin: 0.4rem 0 0.8rem; }
table { border-collapse: collapse; font-size: 0.84rem; }
th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { font-size: 0.74rem; text-transform: uppercase; letter-spacing: 0.03em; color: var(--muted); border-bottom: 2px solid #d1d5db; white-space: nowrap; }
code.evidence { font-size: 0.74rem; overflow-wrap: anywhere; }
.fixed-plans { font-size: 0.84rem; line-height: 1.9; }
.fixed-plan { white-space: nowrap; margin-right: 0.5rem; }
table.picks td { white-space: nowrap; }
.compare-controls { display: flex; gap: 0.4rem; align-items: center; flex-wrap: wrap; }
.compare-controls select { font: inherit; font-size: 0.86rem; padding: 0.2rem; }
@media (max-width: 800px) { .layout { grid-template-columns: 1fr; } .sidebar { position: static; max-height: none; border-right: 0; border-bottom: 1px solid var(--line); } }
`;
