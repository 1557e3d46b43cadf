import type { Plan } from '../../core/index.js';
import { excerpt } from './text-excerpt.js';

/**
 * A compact outline of a plan: one line per node (id, agent, upstream nodes, answer mark), then
 * its input and non-default params. Written here from the Plan data rather than with the
 * canonical renderer of `plan/`, which is the reward model's input and may change for it.
 */
export function formatPlanOutline(plan: Plan, maxChars: number): string[] {
  const lines: string[] = [];
  if (plan.thinking !== undefined) lines.push(`thinking: ${excerpt(plan.thinking, maxChars)}`);
  if (plan.nodes.length === 0) {
    lines.push(`direct answer: ${plan.directAnswer === undefined ? '(none)' : excerpt(plan.directAnswer, maxChars)}`);
    return lines;
  }
  const width = Math.max(...plan.nodes.map((node) => node.id.length));
  const agentWidth = Math.max(...plan.nodes.map((node) => node.agent.length));
  for (const node of plan.nodes) {
    const upstream = plan.edges.filter((edge) => edge.to === node.id).map((edge) => edge.from);
    const from = upstream.length === 0 ? 'start' : `<- ${upstream.join(', ')}`;
    const mark = node.id === plan.answer ? '  [answer]' : '';
    lines.push(`${node.id.padEnd(width)}  ${node.agent.padEnd(agentWidth)}  ${from}${mark}`);
    const indent = ' '.repeat(width + 2);
    lines.push(`${indent}input: ${node.input === '' ? '(the question)' : excerpt(node.input, maxChars)}`);
    if (Object.keys(node.params).length > 0) lines.push(`${indent}params: ${JSON.stringify(node.params)}`);
  }
  const edges = plan.edges.map((edge) => `${edge.from}->${edge.to}`).join(', ');
  lines.push(`edges: ${edges === '' ? 'none' : edges}`);
  return lines;
}
