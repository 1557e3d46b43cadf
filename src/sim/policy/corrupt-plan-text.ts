import type { Plan, PlanNode, Rng } from '../../core/index.js';
import { writePlanText, type PlanTextFormat } from './write-plan-text.js';

/** The ways the simulated orchestrator's output goes wrong, as real orchestrator outputs do. */
export const MALFORMATION_KINDS = [
  /** The text stops early (as at a token limit), before the plan is complete. */
  'truncated',
  /** An opening brace (JSON) or `<agent>` / `<answer>` tag (XML) is missing. */
  'missing_delimiter',
  /** A node names a block that does not exist. */
  'unknown_agent',
  /** A debate node without its required roles. */
  'debate_without_roles',
  /**
   * An input references `${X}`, and an edge comes from `X`, for a node that was never declared
   * (a `${X}` alone is text to the parser, as in the MAS-Orchestra runner; the edge is refused).
   */
  'undeclared_reference',
  /** The answer node feeds back into a start node. */
  'cycle',
  /** An extra node that feeds nothing: two final nodes. */
  'two_sinks',
  /** Prose about the task and no plan at all. */
  'prose_only',
] as const;
export type MalformationKind = (typeof MALFORMATION_KINDS)[number];

const NEEDS_NODES: ReadonlySet<MalformationKind> = new Set(['unknown_agent', 'debate_without_roles', 'undeclared_reference', 'cycle', 'two_sinks']);
const UNKNOWN_AGENTS = ['PlannerAgent', 'VerifierAgent', 'MathSolverAgent', 'WebBrowserAgent', 'CalculatorAgent', 'SummarizerAgent'];
const PROSE = [
  'Let me think about how to approach this. The question needs a few facts and some reasoning, so I would first work out the parts and then combine them carefully.',
  'This looks like a multi-step problem. I would break it down, solve each part, and check the result before answering.',
  'To solve this, one agent should read the question closely and another should verify the answer. That should be enough here.',
];

/** Corruptions that can apply to a plan (those editing nodes need nodes). */
export function applicableMalformations(plan: Plan): MalformationKind[] {
  return MALFORMATION_KINDS.filter((kind) => plan.nodes.length > 0 || !NEEDS_NODES.has(kind));
}

/**
 * Writes a plan's text with one corruption. Each kind is built so that `parsePlan` reports a
 * diagnostic: graph corruptions edit the plan before writing, text corruptions edit the text
 * (see `truncate` for where cuts fall).
 */
export function writeMalformedPlanText(plan: Plan, format: PlanTextFormat, kind: MalformationKind, rng: Rng): string {
  switch (kind) {
    case 'truncated':
      return truncate(writePlanText(plan, format, rng), plan, format, rng);
    case 'missing_delimiter':
      return dropDelimiter(writePlanText(plan, format, rng), plan, format);
    case 'prose_only':
      return rng.pick(PROSE);
    default:
      return writePlanText(corruptGraph(plan, kind, rng), format, rng);
  }
}

function corruptGraph(plan: Plan, kind: MalformationKind, rng: Rng): Plan {
  const nodes: PlanNode[] = plan.nodes.map((node) => ({ ...node, params: { ...node.params } }));
  const edges = [...plan.edges];
  const target = rng.pick(nodes);
  const freeId = `N${nodes.length + 1}`;
  const answer = plan.answer ?? (nodes[nodes.length - 1] as PlanNode).id;
  if (kind === 'unknown_agent') target.agent = rng.pick(UNKNOWN_AGENTS);
  else if (kind === 'debate_without_roles') {
    target.agent = 'debate';
    target.params = { rounds: 2, temperature: target.params.temperature ?? 0.7 };
  } else if (kind === 'undeclared_reference') {
    target.input = `${target.input} Use the result of \${${freeId}}.`;
    edges.push({ from: freeId, to: target.id });
  }
  else if (kind === 'cycle') {
    const start = nodes.find((node) => !edges.some((edge) => edge.to === node.id)) as PlanNode;
    start.input = `Given the final answer \${${answer}}: ${start.input}`;
    edges.push({ from: answer, to: start.id });
  } else if (kind === 'two_sinks') {
    nodes.push({ id: freeId, agent: 'cot', input: 'Double-check the question and summarise the key facts.', params: {} });
  }
  return { ...plan, nodes, edges };
}

/** End offsets of every match of `pattern` in `text`. */
function matchEnds(text: string, pattern: RegExp): number[] {
  return Array.from(text.matchAll(pattern), (match) => match.index + match[0].length);
}

const MARKERS = {
  json: { agent: /"agent":\s*"/g, edgeTarget: /"to":\s*"/g, directAnswer: /"directAnswer":\s*"/g },
  xml: { agent: /<agent_name>/g, edgeTarget: /<to>/g, directAnswer: /<answer>/g },
};

/**
 * Cuts the text where the plan is still incomplete: for a graph, after the second agent's name
 * has begun and before the last edge's target is written (so edges are missing, or a node
 * is half-written); for one node, before its agent name; for a direct answer, before the answer.
 */
function truncate(text: string, plan: Plan, format: PlanTextFormat, rng: Rng): string {
  const markers = MARKERS[format];
  const opening = format === 'json' ? text.indexOf('{') + 1 : 1;
  let start = opening;
  let end: number;
  if (plan.nodes.length >= 2) {
    start = matchEnds(text, markers.agent)[1] ?? opening;
    end = matchEnds(text, markers.edgeTarget).at(-1) ?? start;
  } else if (plan.nodes.length === 1) end = matchEnds(text, markers.agent)[0] ?? start;
  else end = matchEnds(text, markers.directAnswer)[0] ?? start;
  return text.slice(0, rng.int(start, Math.max(start, end)));
}

function dropDelimiter(text: string, plan: Plan, format: PlanTextFormat): string {
  if (format === 'json') return text.replace('{', '');
  return text.replace(plan.nodes.length > 0 ? '<agent>' : '<answer>', '');
}
