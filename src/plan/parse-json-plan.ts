import { jsonrepair } from 'jsonrepair';
import type { Diagnostic, PlanParseResult, PlanWarning } from '../core/plan.js';
import { findJsonCandidates, type JsonCandidate } from './find-json-candidates.js';
import { finishPlan } from './finish-plan.js';
import { isRecord } from './json-keys.js';
import { isPlanLike, mapJsonPlan, unwrapPlanObject } from './map-json-plan.js';
import { jsonEnding } from './plan-ending.js';
import { planDiagnostic, planWarning } from './plan-diagnostic.js';
import { MAX_REPAIR_CHARS } from './plan-limits.js';
import { defaultBlockCatalog, type PlanTextOptions } from './plan-text-options.js';

/** Candidates beyond this many (counted from the end of the text) are not tried. */
const MAX_CANDIDATES = 64;

interface ReadCandidate {
  candidate: JsonCandidate;
  value?: unknown;
  repaired: boolean;
  error?: string;
  /** Not strict JSON and too long to repair within MAX_REPAIR_CHARS. */
  tooLargeToRepair?: boolean;
}

function readCandidate(candidate: JsonCandidate): ReadCandidate {
  try {
    return { candidate, value: JSON.parse(candidate.text), repaired: false };
  } catch (strictError) {
    if (candidate.text.length > MAX_REPAIR_CHARS) {
      const error = strictError instanceof Error ? strictError.message : String(strictError);
      return { candidate, repaired: false, error, tooLargeToRepair: true };
    }
    try {
      return { candidate, value: JSON.parse(jsonrepair(candidate.text)), repaired: true };
    } catch (error) {
      return { candidate, repaired: false, error: error instanceof Error ? error.message : String(error) };
    }
  }
}

/**
 * Parses a JSON plan from model output: the object may sit in a ``` fence or in prose, and
 * small syntax slips (trailing commas, single quotes, comments, a missing closing brace) are
 * repaired with `jsonrepair` (warning `json_repaired`), but JSON that stops inside a string or
 * with an object still open is refused as `truncated`. When several objects are present the
 * last complete plan-like one wins. Key variants are accepted with `key_variant` warnings; a
 * plan without nodes (`{"dom": "low", "answer": "42"}`) is a direct answer. Only reads the
 * plan; `parsePlan` also validates the graph. Never throws.
 *
 * @example
 * parseJsonPlan('Plan:\n```json\n{"nodes": [{"id": "A", "agent": "cot", "input": ""}],}\n```')
 * // { ok: true, plan: { dom: 'low', nodes: [...], edges: [], answer: 'A' }, warnings: [json_repaired, dom_inferred] }
 */
export function parseJsonPlan(text: string, options: PlanTextOptions = {}): PlanParseResult {
  const warnings: PlanWarning[] = [];
  if (text.trim() === '') {
    return { ok: false, diagnostics: [planDiagnostic('empty_output', '', 'the output is empty; write a plan')], warnings };
  }
  const ordered = findJsonCandidates(text)
    .sort((a, b) => Number(b.complete) - Number(a.complete) || b.end - a.end || Number(b.fenced) - Number(a.fenced))
    .slice(0, MAX_CANDIDATES);
  if (ordered.length === 0) {
    const message = 'no JSON object was found; write the plan as {"dom": ..., "nodes": [...], "edges": [...], "answer": ...}';
    return { ok: false, diagnostics: [planDiagnostic('no_plan_found', '', message)], warnings };
  }
  // A fenced plan is also found as a balanced object: each distinct text is parsed once
  // (compared directly: hashing kilobytes of text for a map costs more than the few comparisons).
  const read: ReadCandidate[] = [];
  for (const candidate of ordered) {
    const known = read.find((entry) => entry.candidate.text.length === candidate.text.length && entry.candidate.text === candidate.text);
    read.push(known === undefined ? readCandidate(candidate) : { ...known, candidate });
  }
  const planLike = read.filter((entry) => entry.value !== undefined && isPlanLike(entry.value));
  const chosen = planLike[0];
  if (!chosen || !isRecord(chosen.value)) {
    const failed = read.find((entry) => entry.error !== undefined);
    const diagnostic = failed?.tooLargeToRepair
      ? planDiagnostic('too_large', '', `the JSON has syntax errors (${failed.error}) and is ${failed.candidate.text.length} characters long; only JSON up to ${MAX_REPAIR_CHARS} characters (MAX_REPAIR_CHARS) is repaired, so write strict JSON or a far shorter plan`)
      : failed
      ? planDiagnostic('json_syntax', '', `the JSON could not be read even after repair (${failed.error}); check brackets, quotes and commas`)
      : planDiagnostic('no_plan_found', '', 'JSON was found but none of it is a plan; use the keys "dom", "nodes", "edges" and "answer"');
    return { ok: false, diagnostics: [diagnostic], warnings };
  }
  const chosenText = chosen.candidate.text.trim();
  if (planLike.some((entry) => entry.candidate.text.trim() !== chosenText)) {
    warnings.push(planWarning('multiple_plans', '', `${planLike.length} plan-like JSON objects were found; the last complete one was used`));
  }
  if (chosen.repaired) {
    // Repair would close a string or object the output stopped inside: what it gives is partial.
    const ending = jsonEnding(chosen.candidate.text);
    if (ending.kind !== 'complete') return { ok: false, diagnostics: [ending.diagnostic], warnings };
    warnings.push(planWarning('json_repaired', '', 'the JSON had syntax errors (e.g. trailing commas, single quotes, comments) that were repaired; write strict JSON'));
  }
  const diagnostics: Diagnostic[] = [];
  const catalog = options.catalog ?? defaultBlockCatalog();
  const draft = mapJsonPlan(unwrapPlanObject(chosen.value, warnings), catalog, warnings, diagnostics);
  if (diagnostics.length > 0) return { ok: false, diagnostics, warnings };
  return { ok: true, plan: finishPlan(draft, options.dom, warnings), warnings };
}
