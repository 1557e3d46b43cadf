import type { TopLevelSpec } from 'vega-lite';
import { SystemError } from '../core/index.js';
import { escapeHtml } from './escape-html.js';

/** A chart of the report: a Vega-Lite spec plus what the page and its test need to know about it. */
export interface ChartDefinition {
  /** Stable id: the figure's `data-chart` attribute and the prefix of its element ids. */
  id: string;
  /** Short title, shown above the chart and read as the SVG's accessible name. */
  title: string;
  /** Alt text: what the chart shows, in a sentence or two, for readers who cannot see it. */
  description: string;
  /** Caption under the chart: how to read it (plain text). */
  caption: string;
  /** Vega-Lite spec without `$schema`, `description` or `config` (added here). */
  spec: TopLevelSpec;
  /**
   * Name of the layer whose mark items stand one-for-one for the data points (Vega names its
   * mark container `<name>_marks`); the page test counts them against `points`.
   */
  pointLayer: string;
  /** Data points the chart plots (items of `pointLayer`). */
  points: number;
}

/** Fonts and muted axes shared by every chart; the page uses the same font stack. */
export const CHART_FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

const CHART_CONFIG = {
  font: CHART_FONT,
  background: 'transparent',
  view: { stroke: null },
  axis: { labelColor: '#374151', titleColor: '#111827', gridColor: '#e5e7eb', domainColor: '#9ca3af', tickColor: '#9ca3af', labelFontSize: 11, titleFontSize: 12, titleFontWeight: 600 },
  legend: { labelColor: '#374151', titleColor: '#111827', labelFontSize: 11, titleFontSize: 12, orient: 'right' },
  title: { fontSize: 13, fontWeight: 600, color: '#111827', anchor: 'start' },
} as const;

/**
 * Renders a chart to an SVG string in Node, with no browser and no network: Vega-Lite compiles
 * the spec to Vega, and a headless Vega view (`renderer: 'none'`) writes SVG. The SVG gets
 * `role="img"` and a `<title>`/`<desc>` pair so assistive technology reads the chart's name and
 * alt text.
 *
 * @example
 * const svg = await renderChartSvg({ id: 'demo', title: 'Demo', description: 'One bar.', caption: '', spec, pointLayer: 'bars', points: 1 });
 */
export async function renderChartSvg(chart: ChartDefinition): Promise<string> {
  // Imported here, not at the top: vega and vega-lite take most of a second to load, and only
  // drawing a chart needs them.
  const [{ parse, View }, { compile }] = await Promise.all([import('vega'), import('vega-lite')]);
  const spec = { ...chart.spec, description: chart.description, config: CHART_CONFIG } as TopLevelSpec;
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return makeAccessible(svg, chart);
  } finally {
    view.finalize();
  }
}

/** A `<figure>` with the chart's title, inline SVG and caption, marked for the page test. */
export async function renderChartFigure(chart: ChartDefinition): Promise<string> {
  const svg = await renderChartSvg(chart);
  const id = escapeHtml(chart.id);
  return [
    `<figure class="chart" data-chart="${id}" data-points="${chart.points}" data-point-marks="${escapeHtml(`${chart.pointLayer}_marks`)}">`,
    `<div class="chart-title" id="${id}-heading">${escapeHtml(chart.title)}</div>`,
    `<div class="chart-body">${svg}</div>`,
    `<figcaption>${escapeHtml(chart.caption)}</figcaption>`,
    '</figure>',
  ].join('\n');
}

function makeAccessible(svg: string, chart: ChartDefinition): string {
  const end = svg.indexOf('>');
  if (!svg.startsWith('<svg') || end < 0) throw new SystemError(`vega returned no SVG for chart ${chart.id}`);
  const id = escapeHtml(chart.id);
  const open = `${svg.slice(0, end)} role="img" aria-labelledby="${id}-svg-title ${id}-svg-desc">`;
  const label = `<title id="${id}-svg-title">${escapeHtml(chart.title)}</title><desc id="${id}-svg-desc">${escapeHtml(chart.description)}</desc>`;
  return open + label + svg.slice(end + 1);
}
