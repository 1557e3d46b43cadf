import type { ChatMessage, Dom, Plan } from '../core/index.js';
import { ORCHESTRATOR_PROMPTS } from '../prompts/index.js';
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

const TEMPLATES = ORCHESTRATOR_PROMPTS;

/**
 * The messages that ask an LLM orchestrator for a plan: a system message with its role, a
 * developer message describing the catalog's blocks (params and defaults), the plan format
 * with a worked example, the graph rules and the DoM constraint, and a user message with the
 * task. The developer message does not depend on the task, so servers can cache the prefix.
 * Every word comes from the prompt template set (`prompts/`, ORCHESTRATOR_PROMPTS).
 *
 * @example
 * buildOrchestratorMessages('What is 17 * 23?', { catalog, format: 'json', dom: 'auto' })
 */
export function buildOrchestratorMessages(question: string, options: OrchestratorPromptOptions): ChatMessage[] {
  const { catalog, format = 'json', dom = 'auto' } = options;
  const developer = [
    TEMPLATES.blocksHeader,
    describeBlocks(catalog),
    '',
    TEMPLATES.graphRules,
    '',
    TEMPLATES.domRules[dom],
    '',
    format === 'json' ? jsonFormat(catalog, dom) : xmlFormat(catalog, dom),
  ].join('\n');
  return [
    { role: 'system', content: TEMPLATES.system },
    { role: 'developer', content: developer },
    { role: 'user', content: `${TEMPLATES.taskHeader}\n${question.trim()}\n\n${TEMPLATES.writePlan}` },
  ];
}

function jsonFormat(catalog: BlockCatalog, dom: Dom | 'auto'): string {
  const lines: string[] = [TEMPLATES.jsonFormat];
  if (dom !== 'low') lines.push(TEMPLATES.exampleIntro(TEMPLATES.exampleQuestion), '```json', compactJson(examplePlan(catalog)), '```');
  if (dom !== 'high') lines.push(TEMPLATES.jsonDirectAnswer);
  return lines.join('\n');
}

function xmlFormat(catalog: BlockCatalog, dom: Dom | 'auto'): string {
  const lines: string[] = [TEMPLATES.xmlFormat];
  if (dom !== 'low') lines.push(TEMPLATES.exampleIntro(TEMPLATES.exampleQuestion), formatPlanXml(examplePlan(catalog)));
  if (dom !== 'high') lines.push(TEMPLATES.xmlDirectAnswer);
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
