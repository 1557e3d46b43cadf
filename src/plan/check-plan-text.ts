import type { Diagnostic, Plan, PlanWarning } from '../core/index.js';
import { defaultBlockCatalog } from './block-specs.js';
import { parsePlan, type ParsePlanOptions, type PlanTextFormat } from './parse-plan.js';
import { renderInvalidPlan, renderParseResult } from './render-plan.js';

/** What `orchrm plan check` reports about a plan text. */
export interface PlanCheckResult {
  ok: boolean;
  /** The parsed plan when valid, else null. */
  plan: Plan | null;
  diagnostics: Diagnostic[];
  warnings: PlanWarning[];
  format: PlanTextFormat;
  /** The canonical rendering (`renderParseResult`: semantic warnings included), or `renderInvalidPlan` of the diagnostics. */
  rendered: string;
}

/**
 * Parses and validates plan text and renders the result: the library side of
 * `orchrm plan check`.
 *
 * @example
 * const check = checkPlanText(text, { format: 'auto', dom: 'high' });
 * console.log(check.ok ? check.rendered : check.diagnostics);
 */
export function checkPlanText(text: string, options: ParsePlanOptions = {}): PlanCheckResult {
  const catalog = options.catalog ?? defaultBlockCatalog();
  const result = parsePlan(text, { ...options, catalog });
  if (!result.ok) {
    return { ok: false, plan: null, diagnostics: result.diagnostics, warnings: result.warnings, format: result.format, rendered: renderInvalidPlan(result.diagnostics) };
  }
  return { ok: true, plan: result.plan, diagnostics: [], warnings: result.warnings, format: result.format, rendered: renderParseResult(result, catalog) };
}
