import type { ChatMessage, Dom, Plan } from '../core/index.js';
import { writeOrchestratorMessages } from '../prompts/index.js';
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

/**
 * The messages that ask an LLM orchestrator for a plan: a system message with its role, a
 * developer message describing the catalog's blocks (params and defaults), the plan format
 * with a worked example, the graph rules and the DoM constraint, and a user message with the
 * task. The developer message does not depend on the task, so servers can cache the prefix.
 * The layout and every word are the orchestrator prompt codec's (`prompts/`,
 * `writeOrchestratorMessages`); this fills in what depends on the catalog.
 *
 * @example
 * buildOrchestratorMessages('What is 17 * 23?', { catalog, format: 'json', dom: 'auto' })
 */
export function buildOrchestratorMessages(question: string, options: OrchestratorPromptOptions): ChatMessage[] {
  const { catalog, format = 'json', dom = 'auto' } = options;
  const example = format === 'json' ? compactJson(examplePlan(catalog)) : formatPlanXml(examplePlan(catalog));
  return writeOrchestratorMessages(question, { blocks: describeBlocks(catalog), format, dom, example });
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
