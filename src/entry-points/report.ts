/**
 * `orchrm/report`: experiment results and the self-contained HTML report (charts drawn as SVG
 * in Node, no browser, no network). Separate from `orchrm` because drawing charts needs vega,
 * which a pipeline user should not load.
 */
export {
  DemoResultsSchema,
  RESULTS_SCHEMA_VERSION,
  findings,
  parseResults,
  readResults,
  renderChartSvg,
  renderReport,
  renderReportHtml,
  type ChartDefinition,
  type DemoResults,
  type Finding,
  type RenderReportOptions,
} from '../report/index.js';
