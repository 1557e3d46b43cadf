/** XML plans (the MAS-Orchestra format): reading a plan from the element tree of `xml-tree.ts`. */
import type { Diagnostic, Dom, PlanEdge, PlanNode, PlanParseResult, PlanWarning } from '../core/index.js';
import { defaultBlockCatalog } from './block-specs.js';
import { COMPLETE, collectParams, FIX, finishPlan, readDom, readNodeId, truncated, type PlanEnding, type PlanTextOptions, type WrittenParam } from './finish-plan.js';
import { nodePath, planDiagnostic, planWarning } from './plan-diagnostic.js';
import { MAX_PLAN_EDGES, MAX_PLAN_NODES, tooManyDiagnostic } from './plan-limits.js';
import { elementText, findElements, liftOutOfUnclosed, MAX_XML_DEPTH, openAtEnd, parseXmlTree, type XmlElement, type XmlTagLimits, type XmlTree } from './xml-tree.js';

const names = (...list: string[]) => new Set(list);
/** Tags whose content is text, never structure: the parser does not look inside them. */
const TEXT_TAGS = names('agent_input', 'input', 'agent_description', 'description', 'thinking', 'think', 'answer', 'final_answer', 'direct_answer');
const AGENT_TAGS = names('agent');
const EDGE_TAGS = names('edge');
const FROM_TO_TAGS = names('from', 'to', 'source', 'target');
const DOM_TAGS = names('dom', 'degree_of_mas', 'degree');
const THINKING_TAGS = names('thinking', 'think');
const ANSWER_NODE_TAGS = names('answer_node', 'final_agent', 'final_node', 'output_node');
const DIRECT_ANSWER_TAGS = names('answer', 'final_answer', 'direct_answer');
const ID_TAGS = names('agent_id', 'id', 'node_id');
/** MAS-Orchestra's minimal format names an agent's output instead of the agent (`<answer>` then names it). */
const OUTPUT_ID_TAGS = names('agent_output_id', 'output_id');
const NAME_TAGS = names('agent_name', 'name', 'agent_type', 'block');
const DESCRIPTION_TAGS = names('agent_description', 'description');
const INPUT_TAGS = names('agent_input', 'input');
const STRAY_AGENT_FIELDS = names('agent_id', 'agent_name');
const ARGUMENT_TAGS = names('required_arguments', 'arguments', 'params', 'parameters');
const STRUCTURE_STOP = new Set([...TEXT_TAGS, 'agent']);
/** Tags that start plan structure: what an unclosed text tag (`<thinking>` without `</thinking>`) must give back. */
const PLAN_STRUCTURE = new Set(['agent', ...EDGE_TAGS, ...FROM_TO_TAGS, ...DOM_TAGS, ...ANSWER_NODE_TAGS, ...ID_TAGS, ...NAME_TAGS, ...ARGUMENT_TAGS]);
/** Tags that stand next to agents, never inside one: they end an `<agent>` whose `</agent>` is missing. */
const AGENT_SIBLINGS = new Set(['agent', ...EDGE_TAGS, 'edges', ...FROM_TO_TAGS, ...DOM_TAGS, ...ANSWER_NODE_TAGS, ...THINKING_TAGS]);
/**
 * What ends an element whose closing tag is missing. An unclosed text tag (`<agent_input>`
 * without `</agent_input>`, as in two of the reference's own prompt examples, or `<thinking>`)
 * ends at the next tag, as the reference reads it.
 */
const ENDED_BY: ReadonlyMap<string, ReadonlySet<string> | 'any'> = new Map<string, ReadonlySet<string> | 'any'>([
  ...[...TEXT_TAGS].map((name) => [name, 'any'] as const),
  ['agent', AGENT_SIBLINGS],
  ['edge', new Set(['agent', ...EDGE_TAGS, ...DOM_TAGS, ...ANSWER_NODE_TAGS, ...THINKING_TAGS])],
]);
/** Every tag a plan is written with (an unclosed one at the end of the text means the output was cut). */
const PLAN_VOCABULARY = new Set([...PLAN_STRUCTURE, ...INPUT_TAGS, ...DESCRIPTION_TAGS, ...DIRECT_ANSWER_TAGS, ...OUTPUT_ID_TAGS]);
/** Tags that are never params, even when found inside an `<agent>` (e.g. after a missing `</agent>`). */
const NOT_PARAMS = new Set(['agent', 'edge', 'edges', 'agents', ...OUTPUT_ID_TAGS, ...FROM_TO_TAGS, ...DOM_TAGS, ...THINKING_TAGS, ...ANSWER_NODE_TAGS, ...DIRECT_ANSWER_TAGS]);
/** Where the `<from>`/`<to>` of an `<edge>` block are looked for. */
const EDGE_BLOCK_STOP = new Set([...STRUCTURE_STOP, 'edge']);
/** Every edge has one `<from>` (or `<source>`) and one `<to>` (or `<target>`). */
const TAG_LIMITS: XmlTagLimits = new Map([['agent', MAX_PLAN_NODES], ...[...FROM_TO_TAGS].map((name) => [name, MAX_PLAN_EDGES] as const)]);

/**
 * Parses the MAS-Orchestra XML plan format (`<agent>`, `<edge>`, `<dom>`, `<thinking>`) with a
 * real tokenizer. Tolerant: prose around the plan is ignored, text inside tags may hold `<`,
 * `&` and `${id}` (CDATA is unwrapped, entities decoded), an unclosed `<thinking>` ends where
 * the plan begins, several `<edge>` blocks are merged, `<from>/<to>` pairs are matched in
 * order (`unbalanced_edge` when counts differ) and may stand without an `<edge>` wrapper
 * (warning `edge_without_wrapper`), and the minimal format's `<agent_output_id>` stands in
 * for a missing `<agent_id>`. Agent names resolve through the catalog's aliases. Output that
 * stops with the plan still open (inside an agent, a value, the edge block) or right after
 * its agents, before any edge, is refused as `truncated`.
 * docs/plan-format.md lists where this differs from the reference parser and why.
 * Only reads the plan; `parsePlan` also validates the graph. Never throws.
 *
 * @example
 * parseXmlPlan('<agent><agent_id>A</agent_id><agent_name>CoTAgent</agent_name></agent>')
 * // { ok: true, plan: { dom: 'low', nodes: [{ id: 'A', agent: 'cot', input: '', params: {} }], ... } }
 */
export function parseXmlPlan(text: string, options: PlanTextOptions = {}): PlanParseResult {
  const warnings: PlanWarning[] = [];
  const diagnostics: Diagnostic[] = [];
  if (text.trim() === '') {
    return { ok: false, diagnostics: [planDiagnostic('empty_output', '', 'the output is empty; write a plan')], warnings };
  }
  const tree = parseXmlTree(text, TAG_LIMITS);
  if (tree.tooDeep) {
    const message = `tags are nested more than ${MAX_XML_DEPTH} levels deep, so closing tags are missing; close every <agent> with </agent>`;
    return { ok: false, diagnostics: [planDiagnostic('xml_syntax', '', message)], warnings };
  }
  if (tree.overLimit) {
    const [what, path] = tree.overLimit.name === 'agent' ? (['nodes', 'nodes'] as const) : (['edges', 'edges'] as const);
    return { ok: false, diagnostics: [tooManyDiagnostic(what, path, undefined, tree.overLimit.limit)], warnings };
  }
  liftOutOfUnclosed(tree.root, ENDED_BY);
  const ending = xmlEnding(tree, text, PLAN_VOCABULARY);
  if (ending.kind === 'truncated') return { ok: false, diagnostics: [ending.diagnostic], warnings };
  const catalog = options.catalog ?? defaultBlockCatalog();
  const read = (element: XmlElement) => elementText(tree, element);
  const found = planElements(tree.root);

  const agents = found.agents;
  const nodes = agents.map((agent, index) => readAgent(tree, agent, index, { catalog, warnings, diagnostics, onlyAgent: agents.length === 1 }));
  const edges = readEdges(tree, found, diagnostics, warnings);
  const beforeEdges = endsBeforeEdges(tree, agents, edges.length);
  if (beforeEdges.kind === 'truncated') return { ok: false, diagnostics: [beforeEdges.diagnostic], warnings };
  if (found.strayFields > 0) {
    const message = `${found.strayFields} <agent_id>/<agent_name> tag(s) stand outside any <agent> block; wrap each agent in <agent>...</agent>`;
    diagnostics.push(planDiagnostic('xml_syntax', 'nodes', message));
  }

  const domElement = found.dom;
  let dom: Dom | undefined;
  if (domElement) dom = readDom(read(domElement), 'dom', diagnostics);
  const thinkingElement = found.thinking;
  const answerNodeElement = found.answerNode;
  let answer = answerNodeElement ? readNodeId(read(answerNodeElement)) : undefined;
  const directAnswerElement = found.directAnswer;
  let directAnswer = directAnswerElement ? read(directAnswerElement) : undefined;
  if (directAnswer !== undefined && nodes.length > 0 && answer === undefined && nodes.some((node) => node.id === readNodeId(directAnswer!))) {
    warnings.push(planWarning('key_variant', 'answer', '<answer> names an agent; read it as <answer_node>'));
    answer = readNodeId(directAnswer);
    directAnswer = undefined;
  }

  if (nodes.length === 0 && edges.length === 0 && directAnswer === undefined && diagnostics.length === 0) {
    if (ending.kind === 'inside_thinking') return { ok: false, diagnostics: [ending.diagnostic], warnings };
    const message = 'no <agent> blocks and no <answer> were found; write agents as <agent><agent_id>..</agent_id><agent_name>..</agent_name>..</agent>, or a direct answer as <answer>..</answer>';
    return { ok: false, diagnostics: [planDiagnostic('no_plan_found', '', message)], warnings };
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics, warnings };
  const plan = finishPlan(
    { dom, thinking: thinkingElement ? read(thinkingElement) : undefined, nodes, edges, answer, directAnswer },
    options.dom,
    warnings,
  );
  return { ok: true, plan, warnings };
}

/** The plan-level elements of a tree, found in one walk (see `planElements`). */
interface PlanElements {
  agents: XmlElement[];
  edgeBlocks: XmlElement[];
  /** `<from>`/`<to>` outside any `<edge>` block. */
  looseEnds: XmlElement[];
  /** `<agent_id>`/`<agent_name>` outside any `<agent>`. */
  strayFields: number;
  dom: XmlElement | undefined;
  thinking: XmlElement | undefined;
  answerNode: XmlElement | undefined;
  directAnswer: XmlElement | undefined;
}

/**
 * Walks the tree once, in document order, without descending into text tags. Plan-level tags
 * are looked for inside agents too: after a missing </agent> the tokenizer nests what follows.
 */
function planElements(root: XmlElement): PlanElements {
  const found: PlanElements = { agents: [], edgeBlocks: [], looseEnds: [], strayFields: 0, dom: undefined, thinking: undefined, answerNode: undefined, directAnswer: undefined };
  const visit = (children: readonly XmlElement[], insideAgent: boolean, insideEdge: boolean): void => {
    for (const child of children) {
      const name = child.name;
      if (AGENT_TAGS.has(name)) found.agents.push(child);
      else if (EDGE_TAGS.has(name)) found.edgeBlocks.push(child);
      else if (FROM_TO_TAGS.has(name)) {
        if (!insideEdge) found.looseEnds.push(child);
      } else if (STRAY_AGENT_FIELDS.has(name)) {
        if (!insideAgent) found.strayFields++;
      } else if (DOM_TAGS.has(name)) found.dom ??= child;
      else if (THINKING_TAGS.has(name)) found.thinking ??= child;
      else if (ANSWER_NODE_TAGS.has(name)) found.answerNode ??= child;
      else if (DIRECT_ANSWER_TAGS.has(name)) found.directAnswer ??= child;
      if (child.children.length > 0 && !TEXT_TAGS.has(name)) visit(child.children, insideAgent || AGENT_TAGS.has(name), insideEdge || EDGE_TAGS.has(name));
    }
  };
  visit(root.children, false, false);
  return found;
}

interface AgentContext {
  catalog: NonNullable<PlanTextOptions['catalog']>;
  warnings: PlanWarning[];
  diagnostics: Diagnostic[];
  /** The plan has this one agent, so a missing id can be made up. */
  onlyAgent: boolean;
}

function readAgent(tree: XmlTree, agent: XmlElement, index: number, context: AgentContext): PlanNode {
  const { catalog, warnings, diagnostics } = context;
  const read = (element: XmlElement) => elementText(tree, element);
  // STRUCTURE_STOP includes 'agent', so an unclosed agent's nested successor is not read as its own.
  const { idElement, nameElement, outputIdElement } = agentFields(agent);
  let id = idElement ? readNodeId(read(idElement)) : undefined;
  if (id === undefined) {
    // The minimal format (one agent, no <agent_id>) names the agent's output instead.
    const outputId = outputIdElement ? readNodeId(read(outputIdElement)) : '';
    if (outputId !== '') {
      id = outputId;
      warnings.push(planWarning('id_assigned', nodePath(index, 'id'), `agent ${index + 1} has no <agent_id>; its <agent_output_id> "${outputId}" is used as its id`));
    } else if (context.onlyAgent) {
      id = 'A';
      warnings.push(planWarning('id_assigned', nodePath(index, 'id'), 'the only agent has no <agent_id>; it is given the id "A"'));
    }
  }
  if (id === undefined) diagnostics.push(planDiagnostic('schema', nodePath(index, 'id'), `agent ${index + 1} has no <agent_id>; give every agent a short unique id`));
  if (!nameElement) diagnostics.push(planDiagnostic('schema', nodePath(index, 'agent'), `agent ${index + 1} has no <agent_name>; name one of the available blocks`));
  const writtenName = nameElement ? read(nameElement) : '';
  const spec = catalog.resolve(writtenName);

  let input = '';
  let description: string | undefined;
  const params: WrittenParam[] = [];
  const readSlot = (child: XmlElement) => {
    if (ID_TAGS.has(child.name) || NAME_TAGS.has(child.name) || NOT_PARAMS.has(child.name)) return;
    if (INPUT_TAGS.has(child.name)) input = read(child);
    else if (DESCRIPTION_TAGS.has(child.name)) description = read(child);
    else params.push({ key: child.name, value: paramText(tree, child), fromText: true });
  };
  for (const child of agent.children) {
    if (ARGUMENT_TAGS.has(child.name)) child.children.forEach(readSlot);
    else readSlot(child);
  }
  const node: PlanNode = {
    id: id ?? '',
    agent: spec?.name ?? writtenName,
    input,
    params: collectParams(params, spec, nodePath(index, 'params'), warnings),
  };
  if (description !== undefined && description !== '') node.description = description;
  return node;
}

/** The first id, name and output-id tags of an agent, in one walk that enters neither text tags nor a nested agent. */
function agentFields(agent: XmlElement): { idElement?: XmlElement; nameElement?: XmlElement; outputIdElement?: XmlElement } {
  const fields: { idElement?: XmlElement; nameElement?: XmlElement; outputIdElement?: XmlElement } = {};
  const visit = (children: readonly XmlElement[]): void => {
    for (const child of children) {
      if (ID_TAGS.has(child.name)) fields.idElement ??= child;
      else if (NAME_TAGS.has(child.name)) fields.nameElement ??= child;
      else if (OUTPUT_ID_TAGS.has(child.name)) fields.outputIdElement ??= child;
      if (child.children.length > 0 && !STRUCTURE_STOP.has(child.name)) visit(child.children);
    }
  };
  visit(agent.children);
  return fields;
}

/** A param's text, or the texts of its children for list-shaped params (`<role>..</role>` items). */
function paramText(tree: XmlTree, element: XmlElement): string | string[] {
  return element.children.length > 0 ? element.children.map((child) => elementText(tree, child)) : elementText(tree, element);
}

function readEdges(tree: XmlTree, found: PlanElements, diagnostics: Diagnostic[], warnings: PlanWarning[]): PlanEdge[] {
  const edges: PlanEdge[] = [];
  const pair = (ends: XmlElement[], label: string) => {
    const froms = ends.filter((end) => end.name === 'from' || end.name === 'source').map((end) => readNodeId(elementText(tree, end)));
    const tos = ends.filter((end) => end.name === 'to' || end.name === 'target').map((end) => readNodeId(elementText(tree, end)));
    if (froms.length !== tos.length) {
      const message = `${label} has ${froms.length} <from> but ${tos.length} <to>; write exactly one <from> and one <to> per edge`;
      diagnostics.push(planDiagnostic('unbalanced_edge', 'edges', message));
    }
    for (let index = 0; index < Math.min(froms.length, tos.length); index++) edges.push({ from: froms[index]!, to: tos[index]! });
  };
  found.edgeBlocks.forEach((block, index) => {
    pair(findElements(block, FROM_TO_TAGS, EDGE_BLOCK_STOP), `<edge> block ${index + 1}`);
  });
  const loose = found.looseEnds;
  if (loose.length > 0) {
    warnings.push(planWarning('edge_without_wrapper', 'edges', `${loose.length} <from>/<to> tag(s) stand outside an <edge> block; read them as edges in order`));
    pair(loose, 'the <from>/<to> tags outside <edge> blocks');
  }
  return edges;
}

// ---- How XML plan text ends

/** A tag begun and not finished at the very end: `<fro`, `</agen` (looked for in the last characters only). */
const PARTIAL_TAG_AT_END = /<\/?([A-Za-z_][A-Za-z0-9_.:-]*)\s*$/;
const TAIL_CHARS = 128;
const NO_STOP: ReadonlySet<string> = new Set();

/**
 * How XML plan text ends, given its element tree (after unclosed text tags gave back their
 * structure). `planTags` are the tags plans are written with: an unclosed `<b>` in closing
 * prose, or `x<y`, says nothing about the plan.
 */
function xmlEnding(tree: XmlTree, text: string, planTags: ReadonlySet<string>): PlanEnding {
  const open = openAtEnd(tree.root);
  const outermost = open[0];
  if (outermost !== undefined && THINKING_TAGS.has(outermost.name)) {
    return { kind: 'inside_thinking', diagnostic: planDiagnostic('truncated', '', `the output stops inside <thinking>, before any plan; ${FIX}`) };
  }
  if (outermost !== undefined && planTags.has(outermost.name)) {
    return truncated(`the output stops inside ${open.map((element) => `<${element.name}>`).join(' ')}, before the plan is finished`);
  }
  // Text whose last `<` has a `>` after it cannot end inside a tag: the search is skipped.
  const partial = text.lastIndexOf('>') > text.lastIndexOf('<') ? null : PARTIAL_TAG_AT_END.exec(text.slice(-TAIL_CHARS));
  const partialName = partial?.[1]?.toLowerCase();
  if (partial !== null && partialName !== undefined && [...planTags].some((tag) => tag.startsWith(partialName)) && hasPlanElements(tree.root, planTags)) {
    return truncated(`the output stops while writing the tag "${partial[0].trim()}"`);
  }
  return COMPLETE;
}

function hasPlanElements(root: XmlElement, planTags: ReadonlySet<string>): boolean {
  return findElements(root, planTags, NO_STOP).length > 0;
}

/**
 * Whether several agents were read, no edge at all, and nothing follows the last `</agent>` but
 * space or a code fence: the output stopped where the `<edge>` block was to begin (the
 * MAS-Orchestra format always ends with it).
 */
function endsBeforeEdges(tree: XmlTree, agents: readonly XmlElement[], edgeCount: number): PlanEnding {
  const last = agents.at(-1);
  if (agents.length < 2 || edgeCount > 0 || last === undefined || !last.closed) return COMPLETE;
  const after = tree.source.slice(last.contentEnd).replace(/^<\/agent\s*>/i, '');
  return /^[\s`]*$/.test(after) ? truncated(`the output ends after its ${agents.length} agents with no <edge> block, which a plan of several agents needs`) : COMPLETE;
}

