import type { Plan } from '../../core/index.js';
import { extractReferences } from '../../plan/index.js';
import type { PlanAnalysis } from './plan-analysis.js';
import { graphShape } from './structure-encoder.js';
import { countBucket } from './task-shape.js';

/** A temperature as a coarse bucket: greedy-like, moderate, high. */
function temperatureBucket(value: unknown): string {
  if (typeof value !== 'number') return 'default';
  return value <= 0.3 ? 'low' : value <= 0.7 ? 'mid' : 'high';
}

/** Samples, rounds and roles of the blocks a plan uses, e.g. `sc.samples=5`, `debate.roles=3`. */
function effortNames(plan: Plan): string[] {
  const names = new Set<string>();
  for (const node of plan.nodes) {
    const { params } = node;
    if (typeof params.samples === 'number') names.add(`${node.agent}.samples=${countBucket(params.samples)}`);
    if (typeof params.maxRounds === 'number') names.add(`${node.agent}.rounds=${countBucket(params.maxRounds)}`);
    if (typeof params.rounds === 'number') names.add(`${node.agent}.rounds=${countBucket(params.rounds)}`);
    if (Array.isArray(params.roles)) names.add(`${node.agent}.roles=${countBucket(params.roles.length)}`);
    names.add(`temperature=${temperatureBucket(params.temperature)}`);
  }
  return [...names];
}

/**
 * Shape names of a plan that hold no words of it: validity, how finely it decomposes the task
 * (node count, depth, nodes reading other nodes), which blocks do the inner work and which
 * gives the answer, and how much effort each block spends (samples, rounds, roles,
 * temperature). An invalid plan is `plan=invalid`; a direct answer `plan=direct`.
 *
 * @example
 * planShape(analyzePlan(text, catalog)) // ['plan=valid', 'single=reflexion', 'nodes=1', ..., 'reflexion.rounds=3', 'temperature=low']
 */
export function planShape(analysis: PlanAnalysis): string[] {
  const plan = analysis.plan;
  if (plan === undefined) return ['plan=invalid'];
  if (plan.nodes.length === 0) return ['plan=valid', 'plan=direct'];
  const names = ['plan=valid', `nodes=${countBucket(plan.nodes.length)}`];
  const { depth } = graphShape(plan);
  names.push(`depth=${countBucket(depth)}`);
  const answer = plan.nodes.find((node) => node.id === plan.answer) ?? plan.nodes.at(-1)!;
  if (plan.nodes.length === 1) names.push(`single=${answer.agent}`);
  else {
    names.push('decomposed', `final=${answer.agent}`);
    const inner = plan.nodes.filter((node) => node !== answer);
    const innerBlocks = new Set(inner.map((node) => node.agent));
    for (const block of innerBlocks) names.push(`inner=${block}`);
    if (innerBlocks.size === 1) names.push(`inner_only=${[...innerBlocks][0]!}`);
    const reading = plan.nodes.filter((node) => extractReferences(node.input).length > 0).length;
    names.push(`reading_nodes=${countBucket(reading)}`);
  }
  for (const block of new Set(plan.nodes.map((node) => node.agent))) names.push(`uses=${block}`);
  names.push(...effortNames(plan));
  return names;
}
