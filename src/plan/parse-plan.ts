import type { PlanParseResult } from '../core/plan.js';
import { detectPlanFormat, type PlanTextFormat } from './detect-plan-format.js';
import { parseJsonPlan } from './parse-json-plan.js';
import { parseXmlPlan } from './parse-xml-plan.js';
import { planDiagnostic } from './plan-diagnostic.js';
import { defaultBlockCatalog, type PlanTextOptions } from './plan-text-options.js';
import { validatePlan } from './validate-plan.js';

/** Texts longer than this are refused with `too_large` (a plan is a few kilobytes). */
export const DEFAULT_MAX_PLAN_CHARS = 2_000_000;

export interface ParsePlanOptions extends PlanTextOptions {
  /** @default 'auto' (XML when XML plan tags are present, else JSON) */
  format?: 'auto' | 'json' | 'xml';
  /** @default DEFAULT_MAX_PLAN_CHARS */
  maxInputChars?: number;
}

/** A parse result that also says which format the text was read as. */
export type PlanParseOutcome = PlanParseResult & { format: PlanTextFormat };

const noPlanFound = (result: PlanParseResult) => !result.ok && result.diagnostics.every((diagnostic) => diagnostic.code === 'no_plan_found');

/**
 * Reads an orchestrator's plan from raw model output (JSON or MAS-Orchestra XML, detected
 * unless `format` is given), then validates it against the catalog and the DoM. Never throws:
 * unreadable text, an invalid graph and even a bug of ours come back as diagnostics.
 *
 * @example
 * const result = parsePlan(modelOutput, { catalog, dom: 'high' });
 * if (result.ok) execute(result.plan); else console.log(result.diagnostics);
 */
export function parsePlan(text: string, options: ParsePlanOptions = {}): PlanParseOutcome {
  const { format = 'auto', maxInputChars = DEFAULT_MAX_PLAN_CHARS } = options;
  try {
    if (typeof text !== 'string' || text.trim() === '') {
      return { ok: false, diagnostics: [planDiagnostic('empty_output', '', 'the output is empty; write a plan')], warnings: [], format: 'unknown' };
    }
    if (text.length > maxInputChars) {
      const message = `the output has ${text.length} characters, more than the ${maxInputChars} allowed; a plan should be far shorter`;
      return { ok: false, diagnostics: [planDiagnostic('too_large', '', message)], warnings: [], format: 'unknown' };
    }
    const catalog = options.catalog ?? defaultBlockCatalog();
    const read = (chosen: PlanTextFormat) => (chosen === 'json' ? parseJsonPlan(text, options) : parseXmlPlan(text, options));
    let chosen: PlanTextFormat = format === 'auto' ? 'unknown' : format;
    let result: PlanParseResult;
    if (format === 'auto') {
      const guess = detectPlanFormat(text);
      chosen = guess.primary;
      if (chosen === 'unknown') {
        const message = 'no plan was found; write a JSON plan {"dom", "nodes", "edges", "answer"} or XML <agent>/<edge> blocks';
        return { ok: false, diagnostics: [planDiagnostic('no_plan_found', '', message)], warnings: [], format: 'unknown' };
      }
      result = read(chosen);
      if (noPlanFound(result) && guess.fallback !== 'unknown') {
        const second = read(guess.fallback);
        if (!noPlanFound(second)) [chosen, result] = [guess.fallback, second];
      }
    } else result = read(chosen);
    // The parsers' results are fresh objects: `format` is added in place rather than copied.
    if (!result.ok) return Object.assign(result, { format: chosen });
    const diagnostics = validatePlan(result.plan, catalog, { dom: options.dom });
    if (diagnostics.length > 0) return { ok: false, diagnostics, warnings: result.warnings, format: chosen };
    return Object.assign(result, { format: chosen });
  } catch (error) {
    // A bug of ours must not take down a collection run; it becomes a diagnostic that says so.
    const detail = error instanceof Error ? error.message : String(error);
    const message = `internal error while reading the plan (${detail}); this is a bug in orchrm, please report it with the plan text`;
    return { ok: false, diagnostics: [planDiagnostic('internal_error', '', message)], warnings: [], format: 'unknown' };
  }
}
