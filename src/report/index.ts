/**
 * Experiment reports (issue 8): the schema of `results.json` and the self-contained HTML page
 * `orchrm report` writes from it.
 */
export { escapeHtml } from './escape-html.js';
export { findings, type Finding, type Verdict } from './findings.js';
export { parseResults, readResults } from './read-results.js';
export { renderChartSvg, type ChartDefinition } from './render-chart.js';
export { renderReport, renderReportHtml, type RenderReportOptions } from './render-report.js';
export {
  DemoResultsSchema,
  FamilyRowSchema,
  TaskPicksSchema,
  RESULTS_SCHEMA_VERSION,
  type Bill,
  type BillStage,
  type BonFrontierResult,
  type BonTableResult,
  type CostModelResults,
  type DemoResults,
  type LearningCurvePointResult,
  type LearningCurveResult,
  type GrpoRunResult,
  type IntervalTuple,
  type RmResults,
  type SwitchingRow,
  type TaskPicks,
  type TokenSplit,
} from './results-schema.js';
export { bonPicksFromRun, switchingRowsOf, bonResultsFromTables, grpoRunFromResult, intervalTuple, learningCurvePointResult, outcomePairsResult, pairSourcesFromStats, rmResultsFromReport } from './results-from-stages.js';
export {
  ViewerData,
  type DocumentLookup,
  type ViewerComparison,
  type ViewerDataOptions,
  type ViewerDocument,
  type ViewerNode,
  type ViewerPair,
  type ViewerPlan,
  type ViewerTask,
} from './viewer/viewer-data.js';
export { renderViewerFile, type RenderedViewerFile, type RenderViewerFileOptions, type ViewerSnapshot } from './viewer/viewer-file.js';
export { jsonForScriptBlock, renderViewerPage, viewerContentSecurityPolicy, type ViewerBoot } from './viewer/viewer-page.js';
export { startViewerServer, type StartViewerServerOptions } from './viewer/viewer-server.js';
