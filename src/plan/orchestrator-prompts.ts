import type { ChatMessage } from '../core/llm-call.js';
import type { Dom, Plan } from '../core/plan.js';
import type { BlockCatalog } from './block-specs.js';
import { describeBlocks } from './describe-blocks.js';
import { formatPlanXml } from './render-plan.js';

export interface OrchestratorPromptOptions {
  catalog: BlockCatalog;
  /** Plan format asked for. @default 'json' */
  format?: 'json' | 'xml';
  /** DoM asked for; `auto` lets the orchestrator choose. @default 'auto' */
  dom?: Dom | 'auto';
}

const SYSTEM_PROMPT =
  'You are the orchestrator of a multi-agent system. Read the task and design, in one response, ' +
  'the system that solves it: which sub-agents to run, the sub-task of each, and how their outputs ' +
  'feed each other. Do not solve the task yourself unless you answer directly. Output only the plan.';

const GRAPH_RULES = [
  'Graph rules:',
  '- Node ids are unique and short: a letter, then letters, digits, "_" or "-".',
  '- A node\'s input is its sub-task. ${X} inserts the output of node X; an empty input means the original task.',
  '- There is an edge X -> Y exactly when the input of Y uses ${X}.',
  '- No cycles. At least one node starts from the task; exactly one node has no outgoing edge: the final node, whose output is the answer.',
].join('\n');

const DOM_RULES: Record<Dom | 'auto', string> = {
  low: 'Degree of MAS: low. Answer directly (no nodes) or use exactly one agent node.',
  high: 'Degree of MAS: high. Use as many agent nodes and edges as the task needs.',
  auto: 'Degree of MAS: choose. "low" = answer directly or use one agent (simple tasks); "high" = several agents in a graph (when decomposition or cross-checking helps). State your choice as dom.',
};

/**
 * The messages that ask an LLM orchestrator for a plan: a system message with its role, a
 * developer message describing the catalog's blocks (params and defaults), the plan format
 * with a worked example, the graph rules and the DoM constraint, and a user message with the
 * task. The developer message does not depend on the task, so servers can cache the prefix.
 *
 * @example
 * buildOrchestratorMessages('What is 17 * 23?', { catalog, format: 'json', dom: 'auto' })
 */
export function buildOrchestratorMessages(question: string, options: OrchestratorPromptOptions): ChatMessage[] {
  const { catalog, format = 'json', dom = 'auto' } = options;
  const developer = [
    'Available blocks (use these names as the agent):',
    describeBlocks(catalog),
    '',
    GRAPH_RULES,
    '',
    DOM_RULES[dom],
    '',
    format === 'json' ? jsonFormat(catalog, dom) : xmlFormat(catalog, dom),
  ].join('\n');
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'developer', content: developer },
    { role: 'user', content: `Task:\n${question.trim()}\n\nWrite the plan.` },
  ];
}

function jsonFormat(catalog: BlockCatalog, dom: Dom | 'auto'): string {
  const lines = [
    'Output format: one JSON object in a ```json fence, with keys "thinking" (brief reasoning), "dom" ("low" or "high"), "nodes" (list of {"id", "agent", "input", "params"}), "edges" (list of {"from", "to"}) and "answer" (id of the final node). Params left out take their defaults.',
  ];
  if (dom !== 'low') lines.push('Example for "Which is larger: the population of Norway or the number of seconds in 60 days?":', '```json', compactJson(examplePlan(catalog)), '```');
  if (dom !== 'high') lines.push('A direct answer has no nodes: {"dom": "low", "nodes": [], "edges": [], "directAnswer": "42"}');
  return lines.join('\n');
}

function xmlFormat(catalog: BlockCatalog, dom: Dom | 'auto'): string {
  const lines = [
    'Output format: XML tags only. <thinking> (brief reasoning), <dom> (low or high), one <agent> block per node with <agent_id>, <agent_name>, and <required_arguments> holding <agent_input> and any params (JSON values, e.g. <roles>["A","B"]</roles>), one <edge><from>X</from><to>Y</to></edge> block per edge, and <answer_node> (id of the final node). Params left out take their defaults.',
  ];
  if (dom !== 'low') lines.push('Example for "Which is larger: the population of Norway or the number of seconds in 60 days?":', formatPlanXml(examplePlan(catalog)));
  if (dom !== 'high') lines.push('A direct answer has no agents: <dom>low</dom><answer>42</answer>');
  return lines.join('\n');
}

/** JSON with one node per line: readable, and fewer prompt tokens than indenting every key. */
function compactJson(plan: Plan): string {
  const { nodes, edges, answer, ...head } = plan;
  const headText = JSON.stringify(head).slice(1, -1);
  const nodeLines = nodes.map((node) => `  ${JSON.stringify(node)}`).join(',\n');
  return `{${headText},\n "nodes": [\n${nodeLines}\n ],\n "edges": ${JSON.stringify(edges)},\n "answer": ${JSON.stringify(answer)}}`;
}

/** A three-node example built from the catalog, so it only ever names blocks that exist. */
function examplePlan(catalog: BlockCatalog): Plan {
  const free = catalog.specs().find((spec) => spec.requiredParams.length === 0);
  const pick = (name: string) => {
    const spec = catalog.resolve(name);
    return spec && (spec.requiredParams.length === 0 || spec.name === 'debate') ? spec.name : (free?.name ?? name);
  };
  const finalAgent = pick('debate');
  return {
    thinking: 'Two independent facts, then a careful comparison.',
    dom: 'high',
    nodes: [
      { id: 'B', agent: pick('search'), input: 'What is the current population of Norway?', params: {} },
      { id: 'C', agent: pick('cot'), input: 'How many seconds are in 60 days?', params: {} },
      {
        id: 'A',
        agent: finalAgent,
        input: 'Population of Norway: ${B}. Seconds in 60 days: ${C}. Which is larger?',
        params: finalAgent === 'debate' ? { roles: ['Statistician', 'Skeptic'], rounds: 2 } : {},
      },
    ],
    edges: [
      { from: 'B', to: 'A' },
      { from: 'C', to: 'A' },
    ],
    answer: 'A',
  };
}
