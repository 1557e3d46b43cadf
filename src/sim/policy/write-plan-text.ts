import type { Plan, Rng } from '../../core/index.js';
import { formatPlanXml } from '../../plan/index.js';
import { XML_AGENT_NAMES } from './plan-wording.js';

export type PlanTextFormat = 'json' | 'xml';

const PROSE_BEFORE_JSON = [
  'Here is the plan.',
  'Plan for this task:',
  'I will design the system as follows.',
  'The multi-agent system for this question:',
];
const PROSE_BEFORE_XML = ['Here is the multi-agent system.', 'The system I propose:'];
/** XML parameter tags as MAS-Orchestra writes them; the parser maps them back to block keys. */
const XML_PARAM_TAGS: Readonly<Record<string, string>> = { roles: 'debate_roles', maxRounds: 'max_rounds' };

/**
 * Writes a plan as an orchestrator model would, in the given format. JSON: bare and indented,
 * or after a sentence of prose in a ```json fence (indented or compact). XML: the
 * MAS-Orchestra tags (`CoTAgent`..., `<debate_roles>`), sometimes after a sentence of prose.
 * Every style parses back to exactly `plan` with `parsePlan`.
 */
export function writePlanText(plan: Plan, format: PlanTextFormat, rng: Rng): string {
  if (format === 'xml') {
    const xml = formatPlanXml(xmlDisplayPlan(plan));
    return rng.chance(0.25) ? `${rng.pick(PROSE_BEFORE_XML)}\n${xml}` : xml;
  }
  const style = rng.int(0, 2);
  if (style === 0) return JSON.stringify(jsonPlanObject(plan), null, 2);
  const body = JSON.stringify(jsonPlanObject(plan), null, style === 1 ? 2 : undefined);
  return `${rng.pick(PROSE_BEFORE_JSON)}\n\`\`\`json\n${body}\n\`\`\``;
}

/** The plan object in the key order orchestrators write (`thinking` first, like the prompt asks). */
export function jsonPlanObject(plan: Plan): Record<string, unknown> {
  const nodes = plan.nodes.map((node) => ({
    id: node.id,
    agent: node.agent,
    ...(node.description !== undefined && { description: node.description }),
    input: node.input,
    params: node.params,
  }));
  return {
    ...(plan.thinking !== undefined && { thinking: plan.thinking }),
    dom: plan.dom,
    nodes,
    edges: plan.edges,
    ...(plan.answer !== undefined && { answer: plan.answer }),
    ...(plan.directAnswer !== undefined && { directAnswer: plan.directAnswer }),
  };
}

/** The plan with MAS-Orchestra agent names and parameter tags, for `formatPlanXml`. */
function xmlDisplayPlan(plan: Plan): Plan {
  const nodes = plan.nodes.map((node) => ({
    ...node,
    agent: XML_AGENT_NAMES[node.agent] ?? node.agent,
    params: Object.fromEntries(Object.entries(node.params).map(([key, value]) => [XML_PARAM_TAGS[key] ?? key, value])),
  }));
  return { ...plan, nodes };
}
