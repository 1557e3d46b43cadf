import type { Diagnostic, Dom, PlanEdge, PlanNode, PlanWarning } from '../core/plan.js';
import type { BlockCatalog } from './block-specs.js';
import type { PlanDraft } from './finish-plan.js';
import { EDGE_KEYS, isRecord, KeyVariantReporter, PLAN_KEYS, PLAN_LIKE_KEYS, readKey, type JsonRecord } from './json-keys.js';
import { mapJsonNode, type JsonNodeContext } from './map-json-node.js';
import { planDiagnostic, planWarning } from './plan-diagnostic.js';
import { MAX_PLAN_EDGES, MAX_PLAN_NODES, tooManyDiagnostic } from './plan-limits.js';
import { readDom, readNodeId } from './plan-values.js';

const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set(Object.values(PLAN_KEYS).flat());

/** Unwraps `{"plan": {...}}`-style envelopes around the plan object. */
export function unwrapPlanObject(value: JsonRecord, warnings: PlanWarning[]): JsonRecord {
  const inner = value.plan;
  if (isRecord(inner) && !Object.keys(value).some((key) => TOP_LEVEL_KEYS.has(key) && key !== 'plan')) {
    warnings.push(planWarning('key_variant', 'plan', 'the plan was wrapped in {"plan": ...}; write the plan object itself'));
    return inner;
  }
  return value;
}

/** Whether a JSON value looks like a plan (has at least one plan key). */
export function isPlanLike(value: unknown): boolean {
  return isRecord(value) && Object.keys(value).some((key) => PLAN_LIKE_KEYS.has(key));
}

/**
 * Maps a parsed JSON object to a plan draft, accepting the key spellings orchestrators use
 * (`agents`, `agent_name`, `agent_input`, `source/target`, `answer_node`, `degree_of_mas`),
 * each reported once as a `key_variant` warning. Problems are pushed to `diagnostics`.
 */
export function mapJsonPlan(record: JsonRecord, catalog: BlockCatalog, warnings: PlanWarning[], diagnostics: Diagnostic[]): PlanDraft {
  const reporter = new KeyVariantReporter(warnings);
  const context: JsonNodeContext = { catalog, reporter, warnings, diagnostics, dependencyEdges: [] };

  const nodes: PlanNode[] = [];
  const nodesEntry = readKey(record, PLAN_KEYS.nodes, 'nodes', reporter);
  const edgesEntry = readKey(record, PLAN_KEYS.edges, 'edges', reporter);
  // Counted before any item is mapped, so a hostile plan costs no more than its JSON.parse.
  const nodeCount = countItems(nodesEntry?.value);
  const edgeCount = countItems(edgesEntry?.value);
  if (nodeCount > MAX_PLAN_NODES) diagnostics.push(tooManyDiagnostic('nodes', 'nodes', nodeCount, MAX_PLAN_NODES));
  if (edgeCount > MAX_PLAN_EDGES) diagnostics.push(tooManyDiagnostic('edges', 'edges', edgeCount, MAX_PLAN_EDGES));
  if (diagnostics.length > 0) return { dom: undefined, nodes, edges: [] };
  if (Array.isArray(nodesEntry?.value)) {
    nodesEntry.value.forEach((item, index) => {
      const node = mapJsonNode(item, index, context);
      if (node) nodes.push(node);
    });
  } else if (isRecord(nodesEntry?.value)) {
    // {"A": {...}, "B": {...}}: the key is the id.
    reporter.report(`${nodesEntry.key} as an object`, 'nodes as a list', 'nodes');
    Object.entries(nodesEntry.value).forEach(([id, item], index) => {
      const node = mapJsonNode(item, index, context, id);
      if (node) nodes.push(node);
    });
  } else if (nodesEntry && nodesEntry.value !== null) {
    diagnostics.push(planDiagnostic('schema', 'nodes', 'nodes must be a list of {"id", "agent", "input", "params"} objects'));
  }

  const edges = [...readEdges(edgesEntry, diagnostics, reporter), ...context.dependencyEdges];
  const domEntry = readKey(record, PLAN_KEYS.dom, 'dom', reporter);
  const dom: Dom | undefined = domEntry ? readDom(domEntry.value, 'dom', diagnostics) : undefined;
  const thinkingEntry = readKey(record, PLAN_KEYS.thinking, 'thinking', reporter);
  const thinking = typeof thinkingEntry?.value === 'string' ? thinkingEntry.value.trim() : undefined;

  let answer: string | undefined;
  let directAnswer: string | undefined;
  if (nodes.length > 0) {
    const entry = readKey(record, PLAN_KEYS.answer, 'answer', reporter);
    if (entry && (typeof entry.value === 'string' || typeof entry.value === 'number')) answer = readNodeId(String(entry.value));
  } else {
    const entry = readKey(record, PLAN_KEYS.directAnswer, 'directAnswer', reporter);
    if (entry && entry.value !== null && typeof entry.value !== 'object') directAnswer = String(entry.value).trim();
    else if (entry && entry.value !== null) diagnostics.push(planDiagnostic('schema', 'directAnswer', 'a direct answer must be text, e.g. {"dom": "low", "answer": "42"}'));
  }
  for (const key of Object.keys(record)) if (!TOP_LEVEL_KEYS.has(key)) reporter.ignore(key, key);
  return { dom, thinking, nodes, edges, answer, directAnswer };
}

/** Items in a `nodes`/`edges` value: list entries or object keys. */
function countItems(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return isRecord(value) ? Object.keys(value).length : 0;
}

function readEdges(entry: ReturnType<typeof readKey>, diagnostics: Diagnostic[], reporter: KeyVariantReporter): PlanEdge[] {
  if (!entry || entry.value === null) return [];
  if (!Array.isArray(entry.value)) {
    diagnostics.push(planDiagnostic('schema', 'edges', 'edges must be a list like [{"from": "A", "to": "B"}]'));
    return [];
  }
  const edges: PlanEdge[] = [];
  entry.value.forEach((item, index) => {
    const path = `edges[${index}]`;
    const edge = readEdge(item, path, reporter);
    if (edge) edges.push(edge);
    else diagnostics.push(planDiagnostic('schema', path, 'an edge must look like {"from": "A", "to": "B"}'));
  });
  return edges;
}

function readEdge(item: unknown, path: string, reporter: KeyVariantReporter): PlanEdge | undefined {
  const id = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? readNodeId(String(value)) : undefined);
  if (isRecord(item)) {
    const from = id(readKey(item, EDGE_KEYS.from, `${path}.from`, reporter)?.value);
    const to = id(readKey(item, EDGE_KEYS.to, `${path}.to`, reporter)?.value);
    return from !== undefined && to !== undefined ? { from, to } : undefined;
  }
  if (Array.isArray(item) && item.length === 2) {
    reporter.report('[from, to] pairs', '{"from", "to"} objects', path);
    const from = id(item[0]);
    const to = id(item[1]);
    return from !== undefined && to !== undefined ? { from, to } : undefined;
  }
  if (typeof item === 'string' && item.includes('->')) {
    reporter.report('"A -> B" strings', '{"from", "to"} objects', path);
    const [from, to, ...rest] = item.split('->');
    return from !== undefined && to !== undefined && rest.length === 0 ? { from: readNodeId(from), to: readNodeId(to) } : undefined;
  }
  return undefined;
}
