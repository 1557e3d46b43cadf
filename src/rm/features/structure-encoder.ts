import type { Plan } from '../../core/index.js';
import { extractReferences } from '../../plan/index.js';
import type { FeatureAccumulator } from './feature-accumulator.js';
import type { FeatureEncoder } from './feature-encoder.js';
import { murmur3String } from './murmur3.js';
import type { NamedFeatureSink } from './named-features.js';
import type { PlanAnalysis } from './plan-analysis.js';
import { log2Bucket } from './task-analysis.js';

/** A param value as a short bucket label: small integers exact, larger ones by octave. */
export function paramBucket(value: unknown): string {
  if (typeof value === 'number') {
    if (Number.isInteger(value)) return Math.abs(value) <= 10 ? String(value) : `~2^${Math.floor(Math.log2(Math.abs(value)))}`;
    return (Math.round(value * 10) / 10).toFixed(1);
  }
  if (typeof value === 'string') return `s:${value.slice(0, 32)}`;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `n${Math.min(value.length, 10)}`;
  return 'other';
}

/** Longest path (in nodes) and the largest fan-in and fan-out of a plan graph. */
export function graphShape(plan: Plan): { depth: number; maxFanIn: number; maxFanOut: number } {
  const position = new Map(plan.nodes.map((node, index) => [node.id, index]));
  const depth = new Array<number>(plan.nodes.length).fill(1);
  const fanIn = new Array<number>(plan.nodes.length).fill(0);
  const fanOut = new Array<number>(plan.nodes.length).fill(0);
  // Canonical plans list nodes in topological order and sort edges by source position, so one
  // pass in edge order sees every predecessor's final depth (nodes on a cycle cannot occur: the
  // plan was validated).
  for (const edge of plan.edges) {
    const from = position.get(edge.from);
    const to = position.get(edge.to);
    if (from === undefined || to === undefined) continue;
    fanIn[to]!++;
    fanOut[from]!++;
    depth[to] = Math.max(depth[to]!, depth[from]! + 1);
  }
  return { depth: Math.max(0, ...depth), maxFanIn: Math.max(0, ...fanIn), maxFanOut: Math.max(0, ...fanOut) };
}

/** Named structure features of a plan (`block:cot`, `depth=2`, `param:sc.samples=5`, `diag:cycle`, `warn:ref_edge_mismatch`) with values. */
export function structureFeatures(analysis: PlanAnalysis): [name: string, value: number][] {
  const plan = analysis.plan;
  if (plan === undefined) return [['invalid', 1], ...analysis.diagnosticCodes.map((code): [string, number] => [`diag:${code}`, 1])];
  const features: [string, number][] = [['valid', 1], [`dom=${plan.dom}`, 1]];
  const nodes = plan.nodes.length;
  if (nodes === 0) features.push(['direct_answer', 1]);
  const { depth, maxFanIn, maxFanOut } = graphShape(plan);
  features.push(
    [`nodes=${Math.min(nodes, 12)}`, 1],
    ['nodes_log', Math.log1p(nodes)],
    [`edges=${Math.min(plan.edges.length, 16)}`, 1],
    [`depth=${Math.min(depth, 10)}`, 1],
    [`max_fan_in=${Math.min(maxFanIn, 6)}`, 1],
    [`max_fan_out=${Math.min(maxFanOut, 6)}`, 1],
  );
  const blockCounts = new Map<string, number>();
  let emptyInputs = 0;
  let referencingInputs = 0;
  for (const node of plan.nodes) {
    blockCounts.set(node.agent, (blockCounts.get(node.agent) ?? 0) + 1);
    if (node.input === '') emptyInputs++;
    if (extractReferences(node.input).length > 0) referencingInputs++;
    features.push([`input_words=${log2Bucket(node.input.split(' ').length)}`, 1]);
    for (const [key, value] of Object.entries(node.params)) features.push([`param:${node.agent}.${key}=${paramBucket(value)}`, 1]);
  }
  for (const [agent, count] of blockCounts) features.push([`block:${agent}`, count], [`block:${agent}=${Math.min(count, 5)}`, 1]);
  if (blockCounts.has('search')) features.push(['search_present', 1]);
  features.push([`empty_inputs=${Math.min(emptyInputs, 5)}`, 1], [`referencing_inputs=${Math.min(referencingInputs, 5)}`, 1]);
  const answer = plan.nodes.find((node) => node.id === plan.answer);
  if (answer) features.push([`answer_block:${answer.agent}`, 1]);
  // What the parser ignored or repaired (an edge added for a `${X}`, a tag dropped) stays visible.
  for (const code of analysis.warningCodes) features.push([`warn:${code}`, 1]);
  return features;
}

/** The `structure` encoder: `structureFeatures` hashed into their own namespace. */
export function createStructureEncoder(mask: number): FeatureEncoder {
  const seed = murmur3String('structure', 0);
  return {
    name: 'structure',
    taskOnly: false,
    encode(_task, plan: PlanAnalysis, out: FeatureAccumulator) {
      for (const [name, value] of structureFeatures(plan)) out.addHashed(murmur3String(name, seed), mask, value);
    },
    explain(_task, plan: PlanAnalysis, out: NamedFeatureSink) {
      for (const [name, value] of structureFeatures(plan)) out.addHashed(`plan ${name}`, murmur3String(name, seed), mask, value);
    },
  };
}

/** Half-octave buckets of the plan's length plus a smooth log term, so a head can fit any shape; the same for its node count. */
function lengthFeatures(plan: PlanAnalysis): [name: string, value: number][] {
  const nodes = plan.plan?.nodes.length ?? 0;
  return [
    [`chars=${Math.floor(2 * Math.log2(plan.text.length + 1))}`, 1],
    ['chars_log', Math.log1p(plan.text.length) / 8],
    [`nodes=${Math.min(nodes, 12)}`, 1],
    ['nodes_log', Math.log1p(nodes)],
  ];
}

/** The `length` encoder (the length-only baseline): plan length in characters and node count. */
export function createLengthEncoder(mask: number): FeatureEncoder {
  const seed = murmur3String('length', 0);
  return {
    name: 'length',
    taskOnly: false,
    encode(_task, plan: PlanAnalysis, out: FeatureAccumulator) {
      for (const [name, value] of lengthFeatures(plan)) out.addHashed(murmur3String(name, seed), mask, value);
    },
    explain(_task, plan: PlanAnalysis, out: NamedFeatureSink) {
      for (const [name, value] of lengthFeatures(plan)) out.addHashed(`plan ${name}`, murmur3String(name, seed), mask, value);
    },
  };
}
