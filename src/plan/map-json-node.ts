import type { Diagnostic, PlanEdge, PlanNode, PlanWarning } from '../core/plan.js';
import { resolveParamKey } from './block-params.js';
import type { BlockCatalog } from './block-specs.js';
import { collectParams, type WrittenParam } from './collect-params.js';
import { isRecord, NODE_KEYS, readKey, type JsonRecord, type KeyVariantReporter } from './json-keys.js';
import { nodePath, planDiagnostic } from './plan-diagnostic.js';
import { readNodeId } from './plan-values.js';

export interface JsonNodeContext {
  catalog: BlockCatalog;
  reporter: KeyVariantReporter;
  warnings: PlanWarning[];
  diagnostics: Diagnostic[];
  /** Edges read from `depends_on` lists. */
  dependencyEdges: PlanEdge[];
}

const NODE_FIELD_KEYS: ReadonlySet<string> = new Set(Object.values(NODE_KEYS).flat());

/** Text fields may be written as numbers; anything else is a `schema` diagnostic. */
function readText(value: unknown, path: string, diagnostics: Diagnostic[]): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return '';
  diagnostics.push(planDiagnostic('schema', path, `expected text, got ${Array.isArray(value) ? 'a list' : typeof value}`));
  return undefined;
}

/**
 * Maps one JSON node to a PlanNode. Params are read from `params` (or `required_arguments`,
 * which may also hold `agent_input`, as in the XML format) and from known param keys written
 * on the node itself (`"roles": [...]` next to `"agent": "debate"`).
 */
export function mapJsonNode(value: unknown, index: number, context: JsonNodeContext, idFromKey?: string): PlanNode | undefined {
  const { catalog, reporter, diagnostics } = context;
  const path = (field: string) => nodePath(index, field);
  if (!isRecord(value)) {
    diagnostics.push(planDiagnostic('schema', nodePath(index), 'each node must be an object like {"id": "A", "agent": "cot", "input": "..."}'));
    return undefined;
  }
  const idEntry = readKey(value, NODE_KEYS.id, path('id'), reporter);
  const id = idEntry ? readText(idEntry.value, path('id'), diagnostics) : idFromKey;
  if (id === undefined && !idEntry) diagnostics.push(planDiagnostic('schema', path('id'), 'node has no "id"; give every node a short unique id'));
  const agentEntry = readKey(value, NODE_KEYS.agent, path('agent'), reporter);
  const writtenAgent = agentEntry ? readText(agentEntry.value, path('agent'), diagnostics) : undefined;
  if (!agentEntry) diagnostics.push(planDiagnostic('schema', path('agent'), 'node has no "agent"; name one of the available blocks'));
  const spec = writtenAgent === undefined ? undefined : catalog.resolve(writtenAgent);

  const paramsEntry = readKey(value, NODE_KEYS.params, path('params'), reporter);
  let paramsRecord: JsonRecord = {};
  if (paramsEntry && isRecord(paramsEntry.value)) paramsRecord = paramsEntry.value;
  else if (paramsEntry && paramsEntry.value !== null) {
    diagnostics.push(planDiagnostic('schema', path('params'), 'params must be an object like {"samples": 5}'));
  }

  const inputEntry = readKey(value, NODE_KEYS.input, path('input'), reporter) ?? readKey(paramsRecord, NODE_KEYS.input, path('input'), reporter);
  const input = inputEntry ? readText(inputEntry.value, path('input'), diagnostics) : '';
  const descriptionEntry = readKey(value, NODE_KEYS.description, path('description'), reporter) ?? readKey(paramsRecord, NODE_KEYS.description, path('description'), reporter);
  const description = descriptionEntry ? readText(descriptionEntry.value, path('description'), diagnostics) : undefined;

  const written: WrittenParam[] = [];
  for (const [key, paramValue] of Object.entries(paramsRecord)) {
    if (!(NODE_KEYS.input as readonly string[]).includes(key) && !(NODE_KEYS.description as readonly string[]).includes(key)) {
      written.push({ key, value: paramValue, fromText: false });
    }
  }
  for (const [key, fieldValue] of Object.entries(value)) {
    if (NODE_FIELD_KEYS.has(key)) continue;
    if (resolveParamKey(key, spec) !== undefined) {
      reporter.report(key, `params.${key}`, path(key));
      written.unshift({ key, value: fieldValue, fromText: false });
    } else reporter.ignore(key, path(key));
  }
  readDependencies(value, id, index, context);

  const node: PlanNode = {
    id: id ?? '',
    agent: spec?.name ?? writtenAgent ?? '',
    input: input ?? '',
    params: collectParams(written, spec, path('params'), context.warnings),
  };
  if (description !== undefined && description.trim() !== '') node.description = description;
  return node;
}

/** `"depends_on": ["B", "C"]` on node A means edges B -> A and C -> A. */
function readDependencies(value: JsonRecord, id: string | undefined, index: number, context: JsonNodeContext): void {
  const entry = readKey(value, NODE_KEYS.dependsOn, nodePath(index, 'depends_on'), context.reporter);
  if (!entry || id === undefined) return;
  const list = Array.isArray(entry.value) ? entry.value : [entry.value];
  for (const item of list) {
    if (typeof item === 'string' && item.trim() !== '') context.dependencyEdges.push({ from: readNodeId(item), to: id });
    else if (item !== null) context.diagnostics.push(planDiagnostic('schema', nodePath(index, entry.key), 'depends_on must list node ids, e.g. ["A", "B"]'));
  }
}
