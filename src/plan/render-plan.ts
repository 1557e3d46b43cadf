import type { Diagnostic, Plan, PlanParseResult, PlanWarning } from '../core/index.js';
import type { BlockCatalog } from './block-specs.js';
import { canonicalizePlan, type CanonicalPlanOptions } from './canonicalize-plan.js';
import { SEMANTIC_WARNING_CODES } from './plan-diagnostic.js';
import { escapeXmlText } from './xml-tree.js';

const tag = (name: string, text: string, indent = '') => `${indent}<${name}>${escapeXmlText(text)}</${name}>`;

/**
 * Renders a plan in canonical form (see `canonicalizePlan`) as MAS-Orchestra-style XML: the
 * text a reward model reads, so formatting noise in the raw output never reaches it. Param
 * values are JSON (`"gpt-4o"`, `5`, `["a","b"]`) so that `parsePlan` reads back exactly the
 * canonical plan. Deterministic: equal canonical plans render to equal text.
 *
 * @example
 * renderPlan({ dom: 'low', nodes: [], edges: [], directAnswer: '42' }, catalog)
 * // '<dom>low</dom>\n<answer>42</answer>'
 */
export function renderPlan(plan: Plan, catalog: BlockCatalog, options: CanonicalPlanOptions = {}): string {
  return formatPlanXml(canonicalizePlan(plan, catalog, options));
}

/** Writes a plan as XML exactly as given (no canonicalisation); `renderPlan` canonicalises first. */
export function formatPlanXml(plan: Plan): string {
  const lines: string[] = [];
  if (plan.thinking !== undefined) lines.push(tag('thinking', plan.thinking));
  lines.push(tag('dom', plan.dom));
  for (const node of plan.nodes) {
    lines.push('<agent>', tag('agent_id', node.id, '  '), tag('agent_name', node.agent, '  '));
    if (node.description !== undefined) lines.push(tag('agent_description', node.description, '  '));
    lines.push('  <required_arguments>', tag('agent_input', node.input, '    '));
    for (const [key, value] of Object.entries(node.params)) lines.push(tag(key, JSON.stringify(value), '    '));
    lines.push('  </required_arguments>', '</agent>');
  }
  for (const edge of plan.edges) lines.push('<edge>', tag('from', edge.from, '  '), tag('to', edge.to, '  '), '</edge>');
  if (plan.answer !== undefined) lines.push(tag('answer_node', plan.answer));
  if (plan.directAnswer !== undefined) lines.push(tag('answer', plan.directAnswer));
  return lines.join('\n');
}

/**
 * The canonical text of a plan that could not be parsed or is invalid: `INVALID PLAN:`
 * followed by its distinct diagnostic codes, sorted. What went wrong is kept, wording is not.
 *
 * @example
 * renderInvalidPlan([{ code: 'cycle', ... }, { code: 'dangling_ref', ... }]) // 'INVALID PLAN: cycle, dangling_ref'
 */
export function renderInvalidPlan(diagnostics: readonly Diagnostic[]): string {
  const codes = [...new Set(diagnostics.map((diagnostic) => diagnostic.code))].sort();
  return codes.length === 0 ? 'INVALID PLAN' : `INVALID PLAN: ${codes.join(', ')}`;
}

/** The distinct semantic warning codes (see `SEMANTIC_WARNING_CODES`) among `warnings`, sorted. */
export function semanticWarningCodes(warnings: readonly PlanWarning[]): string[] {
  return [...new Set(warnings.map((warning) => warning.code).filter((code) => SEMANTIC_WARNING_CODES.has(code)))].sort();
}

/**
 * A canonical rendering with its semantic warning codes as a last line,
 * `<!-- warnings: ignored_key, ref_edge_mismatch -->`, so a reward model reading the text sees
 * that something was ignored or repaired. A comment, so parsing the text gives the same plan.
 */
export function withWarningLine(rendered: string, codes: readonly string[]): string {
  return codes.length === 0 ? rendered : `${rendered}\n<!-- warnings: ${codes.join(', ')} -->`;
}

/**
 * `renderPlan` for a parsed plan, followed by its semantic warnings (`withWarningLine`), or
 * `renderInvalidPlan` for a failed parse.
 */
export function renderParseResult(result: PlanParseResult, catalog: BlockCatalog, options: CanonicalPlanOptions = {}): string {
  if (!result.ok) return renderInvalidPlan(result.diagnostics);
  return withWarningLine(renderPlan(result.plan, catalog, options), semanticWarningCodes(result.warnings));
}
