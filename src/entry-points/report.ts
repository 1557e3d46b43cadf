/**
 * `orchrm/report`: experiment results and the self-contained HTML report (charts drawn as SVG
 * in Node, no browser, no network), and the episode viewer over a database. Separate from
 * `orchrm` because drawing charts needs vega, which a pipeline user should not load.
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
  renderViewerFile,
  startViewerServer,
  ViewerData,
  type ChartDefinition,
  type DocumentLookup,
  type DemoResults,
  type Finding,
  type RenderReportOptions,
  type RenderViewerFileOptions,
  type ViewerDataOptions,
} from '../report/index.js';
