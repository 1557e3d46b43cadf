import type { Dom, Plan, PlanEdge, PlanNode, PlanWarning } from '../core/plan.js';
import { planWarning } from './plan-diagnostic.js';

/** A plan as read from text, before the common clean-up; `dom` may still be unknown. */
export interface PlanDraft {
  dom: Dom | undefined;
  thinking?: string | undefined;
  nodes: PlanNode[];
  edges: PlanEdge[];
  answer?: string | undefined;
  directAnswer?: string | undefined;
}

/**
 * The steps both parsers share: drop repeated edges, settle the DoM (written, else asked for,
 * else inferred from the node count), name the unique sink as the answer when none was named,
 * and keep a direct answer only when there are no nodes.
 */
export function finishPlan(draft: PlanDraft, askedDom: Dom | undefined, warnings: PlanWarning[]): Plan {
  const edges: PlanEdge[] = [];
  const seen = new Set<string>();
  draft.edges.forEach((edge, index) => {
    const key = JSON.stringify([edge.from, edge.to]);
    if (seen.has(key)) {
      warnings.push(planWarning('duplicate_edge', `edges[${index}]`, `edge ${edge.from} -> ${edge.to} is written more than once; kept once`));
      return;
    }
    seen.add(key);
    edges.push(edge);
  });

  let dom = draft.dom;
  if (dom === undefined) {
    dom = askedDom ?? (draft.nodes.length <= 1 ? 'low' : 'high');
    const why = askedDom ? 'the DoM that was asked for' : `inferred from ${draft.nodes.length} agent(s)`;
    warnings.push(planWarning('dom_inferred', 'dom', `the plan states no DoM; using "${dom}" (${why})`));
  }

  const plan: Plan = { dom, nodes: draft.nodes, edges };
  if (draft.thinking !== undefined && draft.thinking !== '') plan.thinking = draft.thinking;
  const answer = draft.answer ?? uniqueSink(draft.nodes, edges);
  if (answer !== undefined && draft.nodes.length > 0) plan.answer = answer;
  if (draft.directAnswer !== undefined) {
    if (draft.nodes.length === 0) plan.directAnswer = draft.directAnswer;
    else warnings.push(planWarning('ignored_key', 'directAnswer', 'a direct answer was written next to agents; the agents are used and the direct answer ignored'));
  }
  return plan;
}

/** The one declared node with no outgoing edge, if there is exactly one. */
function uniqueSink(nodes: readonly PlanNode[], edges: readonly PlanEdge[]): string | undefined {
  const hasOutgoing = new Set(edges.map((edge) => edge.from));
  const sinks = nodes.filter((node) => !hasOutgoing.has(node.id));
  return sinks.length === 1 ? sinks[0]?.id : undefined;
}
