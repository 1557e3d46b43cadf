import type { PlanParseResult } from '../core/index.js';
import { defaultBlockCatalog } from './block-specs.js';
import type { PlanTextOptions } from './finish-plan.js';
import { parseJsonPlan } from './json-plan.js';
import { planDiagnostic } from './plan-diagnostic.js';
import { validateLinkedPlan } from './validate-plan.js';
import { parseXmlPlan } from './xml-plan.js';

/** Which plan format a text was read as; `unknown` when it holds neither. */
export type PlanTextFormat = 'json' | 'xml' | 'unknown';

/** Tags only an XML plan has. */
const STRONG_XML_MARKERS: ReadonlySet<string> = new Set(['<agent>', '<agent_id>', '<agent_name>', '<edge>', '<from>', '<required_arguments>', '<dom>', '<answer_node>']);
/** Tags a direct-answer XML plan may consist of, but which prose or JSON strings might also contain. */
const WEAK_XML_MARKERS: ReadonlySet<string> = new Set(['<answer>', '<final_answer>', '<direct_answer>', '<thinking>']);
const LONGEST_MARKER = Math.max(...[...STRONG_XML_MARKERS, ...WEAK_XML_MARKERS].map((marker) => marker.length));

/**
 * Which markers the text holds, ignoring case: `strong` when a STRONG_XML_MARKERS tag occurs,
 * `weak` when only WEAK_XML_MARKERS ones do. Each `<` is looked at with the few characters
 * after it lowercased, which finds what lowercasing the whole text would (a character whose
 * lowercase is longer, `İ`, never completes a marker).
 */
function xmlMarkers(text: string): 'strong' | 'weak' | 'none' {
  let weak = false;
  for (let index = text.indexOf('<'); index !== -1; index = text.indexOf('<', index + 1)) {
    const head = text.slice(index, index + LONGEST_MARKER).toLowerCase();
    const close = head.indexOf('>');
    if (close === -1) continue;
    const tag = head.slice(0, close + 1);
    if (STRONG_XML_MARKERS.has(tag)) return 'strong';
    if (WEAK_XML_MARKERS.has(tag)) weak = true;
  }
  return weak ? 'weak' : 'none';
}

export interface FormatGuess {
  /** The format to try first. */
  primary: PlanTextFormat;
  /** The format to try when the primary finds no plan at all. */
  fallback: PlanTextFormat;
}

/**
 * Guesses the plan format from markers: XML structure tags win (an XML plan's inputs may
 * contain braces, a JSON plan's strings rarely contain `<agent>`); otherwise JSON when there
 * is a brace, with XML as the fallback for direct answers like `<answer>42</answer>`.
 */
export function detectPlanFormat(text: string): FormatGuess {
  const markers = xmlMarkers(text);
  if (markers === 'strong') return { primary: 'xml', fallback: 'json' };
  const weakXml = markers === 'weak';
  if (text.includes('{')) return { primary: 'json', fallback: weakXml ? 'xml' : 'unknown' };
  return weakXml ? { primary: 'xml', fallback: 'unknown' } : { primary: 'unknown', fallback: 'unknown' };
}

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
    // The parsers link references to edges (`linkReferences`), so the plan's edges are already complete.
    const diagnostics = validateLinkedPlan(result.plan, catalog, { dom: options.dom }, result.plan.edges);
    if (diagnostics.length > 0) return { ok: false, diagnostics, warnings: result.warnings, format: chosen };
    return Object.assign(result, { format: chosen });
  } catch (error) {
    // A bug of ours must not take down a collection run; it becomes a diagnostic that says so.
    const detail = error instanceof Error ? error.message : String(error);
    const message = `internal error while reading the plan (${detail}); this is a bug in orchrm, please report it with the plan text`;
    return { ok: false, diagnostics: [planDiagnostic('internal_error', '', message)], warnings: [], format: 'unknown' };
  }
}
