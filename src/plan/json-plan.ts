/**
 * JSON plans: finding the plan object in model output (`findJsonCandidates`), reading it with
 * the key spellings orchestrators use (`mapJsonPlan`), and the parser that puts them together
 * (`parseJsonPlan`).
 */
import { jsonrepair } from 'jsonrepair';
import type { Diagnostic, Dom, PlanEdge, PlanNode, PlanParseResult, PlanWarning } from '../core/index.js';
import { resolveParamKey } from './block-params.js';
import { defaultBlockCatalog, type BlockCatalog } from './block-specs.js';
import { COMPLETE, collectParams, finishPlan, readDom, readNodeId, truncated, type PlanDraft, type PlanEnding, type PlanTextOptions, type WrittenParam } from './finish-plan.js';
import { nodePath, planDiagnostic, planWarning } from './plan-diagnostic.js';
import { MAX_PLAN_EDGES, MAX_PLAN_NODES, MAX_REPAIR_CHARS, tooManyDiagnostic } from './plan-limits.js';

// ---- Finding JSON objects in model output

/** A stretch of text that may hold the plan's JSON object. */
interface JsonCandidate {
  text: string;
  /** Offset just past the candidate; later candidates are preferred. */
  end: number;
  /** Inside a ``` code fence. */
  fenced: boolean;
  /** False when the object was still open at the end of the text (truncated output). */
  complete: boolean;
}

/** Incomplete objects restart the scan one brace later; a few restarts bound the work. */
const MAX_RESTARTS = 4;

/**
 * Finds JSON objects inside model output: the contents of ``` fences and every top-level
 * balanced `{...}` in the text. An object may only start at a `{` followed by a key (`{"`,
 * `{'`, `{nodes:`), so braces in prose (`the set {1, 2}`) are skipped; inside an object,
 * braces in strings do not count. One pass over the text per restart: linear time.
 */
export function findJsonCandidates(text: string): JsonCandidate[] {
  return [...fencedCandidates(text), ...balancedCandidates(text)];
}

function fencedCandidates(text: string): JsonCandidate[] {
  const candidates: JsonCandidate[] = [];
  let open = text.indexOf('```');
  while (open !== -1) {
    const lineEnd = text.indexOf('\n', open);
    if (lineEnd === -1) break;
    const close = text.indexOf('```', lineEnd);
    const end = close === -1 ? text.length : close;
    const body = text.slice(lineEnd + 1, end).trim();
    if (body.startsWith('{')) candidates.push({ text: body, end, fenced: true, complete: close !== -1 });
    if (close === -1) break;
    open = text.indexOf('```', close + 3);
  }
  return candidates;
}

const isSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9;
/** `[A-Za-z0-9_$]` */
const isIdentifier = (code: number) => (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36;
/** `{`, `[`, `,` and `:`: where a JSON key or value can start. */
const opensValue = (code: number) => code === 123 || code === 91 || code === 44 || code === 58;

/** Whether the `{` at `index` opens an object with a key rather than a brace in prose. */
function opensObject(text: string, index: number): boolean {
  let cursor = index + 1;
  while (isSpace(text.charCodeAt(cursor))) cursor++;
  const first = text.charCodeAt(cursor);
  if (first === 34 || first === 39) return true;
  if (!isIdentifier(first)) return false;
  while (isIdentifier(text.charCodeAt(cursor))) cursor++;
  while (isSpace(text.charCodeAt(cursor))) cursor++;
  return text.charCodeAt(cursor) === 58;
}

/**
 * The first backslash at or after a position, found with `indexOf` and reused until the scan
 * passes it, so a text with few backslashes is searched for them once, not once per string.
 */
class NextBackslash {
  private at = -2;
  constructor(private readonly text: string) {}

  from(position: number): number {
    if (this.at !== -1 && this.at < position) this.at = this.text.indexOf('\\', position);
    return this.at;
  }
}

/**
 * The offset of the quote that closes a string opened just before `from`, or -1 when the text
 * ends inside it. A backslash escapes the character after it; the search jumps from quote to
 * quote and backslash to backslash instead of reading every character.
 */
function stringEnd(text: string, from: number, quote: '"' | "'", backslashes: NextBackslash): number {
  let position = from;
  for (;;) {
    const close = text.indexOf(quote, position);
    if (close === -1) return -1;
    let backslash = backslashes.from(position);
    while (backslash !== -1 && backslash < close - 1) backslash = backslashes.from(backslash + 2);
    if (backslash !== close - 1) return close;
    // The quote is escaped: look on after it.
    position = close + 1;
  }
}

function balancedCandidates(text: string): JsonCandidate[] {
  const candidates: JsonCandidate[] = [];
  let from = 0;
  for (let restarts = 0; restarts <= MAX_RESTARTS; restarts++) {
    const openStart = scanFrom(text, from, candidates);
    if (openStart === undefined) break;
    from = openStart + 1;
  }
  return candidates;
}

/** Scans from `from`, pushing complete objects; returns the start of an object left open at the end. */
function scanFrom(text: string, from: number, candidates: JsonCandidate[]): number | undefined {
  let depth = 0;
  let start = 0;
  /** The last character outside strings that is not space. */
  let previous = 0;
  let index = from;
  const backslashes = new NextBackslash(text);
  while (index < text.length) {
    if (depth === 0) {
      const open = text.indexOf('{', index);
      if (open === -1) break;
      index = open + 1;
      if (opensObject(text, open)) {
        depth = 1;
        start = open;
        previous = 123;
      }
      continue;
    }
    const code = text.charCodeAt(index);
    // A single quote opens a string only where a JSON value or key can start, so the
    // apostrophe in an unquoted `don't` is not mistaken for one.
    if (code === 34 || (code === 39 && opensValue(previous))) {
      const close = stringEnd(text, index + 1, code === 34 ? '"' : "'", backslashes);
      if (close === -1) break;
      previous = code;
      index = close + 1;
      continue;
    }
    if (code === 123) depth++;
    else if (code === 125 && --depth === 0) {
      candidates.push({ text: text.slice(start, index + 1), end: index + 1, fenced: false, complete: true });
    }
    if (!isSpace(code)) previous = code;
    index++;
  }
  if (depth > 0) {
    candidates.push({ text: text.slice(start), end: text.length, fenced: false, complete: false });
    return start;
  }
  return undefined;
}

// ---- Key spellings

type JsonRecord = Record<string, unknown>;

const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Canonical key first, then the spellings orchestrators use for it. */
const PLAN_KEYS = {
  nodes: ['nodes', 'agents'],
  edges: ['edges', 'links', 'connections'],
  dom: ['dom', 'degree_of_mas', 'degree', 'DoM'],
  thinking: ['thinking', 'reasoning', 'thoughts', 'rationale'],
  answer: ['answer', 'answer_node', 'final_agent', 'final_node', 'output', 'output_node'],
  directAnswer: ['directAnswer', 'direct_answer', 'answer', 'final_answer'],
} as const;

const NODE_KEYS = {
  id: ['id', 'agent_id', 'node_id'],
  agent: ['agent', 'agent_name', 'type', 'block', 'agent_type'],
  input: ['input', 'agent_input', 'task', 'subtask', 'prompt'],
  description: ['description', 'agent_description'],
  params: ['params', 'required_arguments', 'parameters', 'arguments'],
  dependsOn: ['depends_on', 'dependencies'],
} as const;

const EDGE_KEYS = { from: ['from', 'source', 'src'], to: ['to', 'target', 'dst'] } as const;

/** Keys whose presence makes a JSON object look like a plan (used to pick among candidates). */
const PLAN_LIKE_KEYS: ReadonlySet<string> = new Set([...Object.values(PLAN_KEYS).flat(), 'plan']);

/** Reports each non-canonical spelling once per plan, at its first place. */
class KeyVariantReporter {
  private readonly seen = new Set<string>();
  constructor(private readonly warnings: PlanWarning[]) {}

  report(written: string, canonical: string, path: string): void {
    if (written === canonical || this.seen.has(written)) return;
    this.seen.add(written);
    this.warnings.push(planWarning('key_variant', path, `read "${written}" as "${canonical}"; write "${canonical}"`));
  }

  ignore(key: string, path: string): void {
    if (this.seen.has(`ignored:${key}`)) return;
    this.seen.add(`ignored:${key}`);
    this.warnings.push(planWarning('ignored_key', path, `"${key}" has no meaning in a plan and was ignored`));
  }
}

/** The first of `keys` present in `record`, reporting a variant spelling. */
function readKey(record: JsonRecord, keys: readonly string[], path: string, reporter: KeyVariantReporter): { key: string; value: unknown } | undefined {
  for (const key of keys) {
    if (Object.hasOwn(record, key) && record[key] !== undefined) {
      reporter.report(key, keys[0]!, path);
      return { key, value: record[key] };
    }
  }
  return undefined;
}

// ---- Mapping a JSON object to a plan draft

const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set(Object.values(PLAN_KEYS).flat());

/** Unwraps `{"plan": {...}}`-style envelopes around the plan object. */
function unwrapPlanObject(value: JsonRecord, warnings: PlanWarning[]): JsonRecord {
  const inner = value.plan;
  if (isRecord(inner) && !Object.keys(value).some((key) => TOP_LEVEL_KEYS.has(key) && key !== 'plan')) {
    warnings.push(planWarning('key_variant', 'plan', 'the plan was wrapped in {"plan": ...}; write the plan object itself'));
    return inner;
  }
  return value;
}

/** Whether a JSON value looks like a plan (has at least one plan key). */
function isPlanLike(value: unknown): boolean {
  return isRecord(value) && Object.keys(value).some((key) => PLAN_LIKE_KEYS.has(key));
}

/**
 * Maps a parsed JSON object to a plan draft, accepting the key spellings orchestrators use
 * (`agents`, `agent_name`, `agent_input`, `source/target`, `answer_node`, `degree_of_mas`),
 * each reported once as a `key_variant` warning. Problems are pushed to `diagnostics`.
 */
function mapJsonPlan(record: JsonRecord, catalog: BlockCatalog, warnings: PlanWarning[], diagnostics: Diagnostic[]): PlanDraft {
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

interface JsonNodeContext {
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
function mapJsonNode(value: unknown, index: number, context: JsonNodeContext, idFromKey?: string): PlanNode | undefined {
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

// ---- The JSON plan parser

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

/**
 * How a JSON candidate ends: `truncated` when it stops inside a string or with an object or
 * list still open, else `complete`. One pass over the text.
 */
function jsonEnding(text: string): PlanEnding {
  let depth = 0;
  let quote: string | undefined;
  let escaped = false;
  let previous = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quote !== undefined) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === quote) quote = undefined;
      continue;
    }
    // As in `scanFrom`: a single quote opens a string only where a key or value can start.
    if (char === '"' || (char === "'" && '{[,:'.includes(previous))) quote = char;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth = Math.max(0, depth - 1);
    if (char !== ' ' && char !== '\n' && char !== '\r' && char !== '\t') previous = char;
  }
  if (quote !== undefined) return truncated('the JSON stops inside a string');
  return depth > 0 ? truncated(`the JSON stops with ${depth} object(s) or list(s) still open`) : COMPLETE;
}
