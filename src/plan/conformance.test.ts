import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { Plan } from '../core/plan.js';
import { parsePlan } from './parse-plan.js';
import { nodeReferences } from './plan-graph.js';

/**
 * The MAS-Orchestra conformance corpus (test-fixtures/conformance/README.md): plan texts from
 * the reference's prompts, variations, mutations and truncations, each with what the reference
 * parser ran and what orchrm must read. Every plan the reference runs must be read into the
 * same graph unless a deviation documented in docs/plan-format.md applies.
 */
const GraphSchema = z.object({
  verdict: z.literal('runs'),
  nodes: z.array(z.object({ id: z.string(), agent: z.string(), input: z.string(), roles: z.array(z.string()).optional() })),
  edges: z.array(z.tuple([z.string(), z.string()])),
  answer: z.string().nullable(),
  flow: z.record(z.string(), z.array(z.string())),
});
const ExpectedSchema = z.union([
  GraphSchema,
  z.object({ verdict: z.literal('runs'), direct: z.string() }),
  z.object({ verdict: z.literal('refuses'), codes: z.array(z.string()) }),
]);
const ReferenceSchema = z.object({
  verdict: z.enum(['runs', 'refuses']),
  rule: z.string().optional(),
  direct: z.string().optional(),
  /** `input` is left out where it equals the expected node's. */
  nodes: z.array(z.object({ id: z.string(), agent: z.string(), input: z.string().optional(), roles: z.unknown().optional() })).optional(),
  edges: z.array(z.tuple([z.string(), z.string()])).optional(),
  sink: z.string().optional(),
  substituted: z.record(z.string(), z.array(z.string())).optional(),
});
const CaseSchema = z.object({
  id: z.string(),
  origin: z.enum(['prompt', 'variation', 'mutation', 'truncation']),
  parser: z.enum(['medium', 'minimal']),
  text: z.string(),
  reference: ReferenceSchema,
  expected: ExpectedSchema,
  deviations: z.array(z.string()),
  note: z.string().optional(),
});
type Case = z.infer<typeof CaseSchema>;

const directory = new URL('./test-fixtures/conformance/', import.meta.url);
const cases: Case[] = readdirSync(directory)
  .filter((name) => name.endsWith('.jsonl'))
  .flatMap((name) => readFileSync(new URL(name, directory), 'utf8').split('\n').filter((line) => line !== '').map((line) => CaseSchema.parse(JSON.parse(line))));

type Graph = z.infer<typeof GraphSchema>;

/** The graph orchrm read, in the corpus's terms. */
function readGraph(plan: Plan): Omit<Graph, 'verdict'> {
  const ids = new Set(plan.nodes.map((node) => node.id));
  return {
    nodes: plan.nodes.map((node) => {
      const roles = node.agent === 'debate' ? node.params.roles : undefined;
      return { id: node.id, agent: node.agent, input: node.input, ...(Array.isArray(roles) && { roles: roles as string[] }) };
    }),
    edges: plan.edges.map((edge): [string, string] => [edge.from, edge.to]).sort(compareEdges),
    answer: plan.answer ?? null,
    flow: Object.fromEntries(plan.nodes.map((node) => [node.id, nodeReferences(node.input, ids).filter((id) => id !== node.id).sort()])),
  };
}

const compareEdges = (a: [string, string], b: [string, string]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

/** What orchrm did with a case, or undefined when it did what the corpus expects. */
function mismatch(entry: Case): string | undefined {
  const result = parsePlan(entry.text);
  const expected = entry.expected;
  if (expected.verdict === 'refuses') {
    if (result.ok) return `read a plan instead of refusing (${expected.codes.join(', ') || 'any code'})`;
    const codes = new Set<string>(result.diagnostics.map((diagnostic) => diagnostic.code));
    const missing = expected.codes.filter((code) => !codes.has(code));
    return missing.length > 0 ? `refused with ${[...codes].join(', ')}, not ${missing.join(', ')}` : undefined;
  }
  if (!result.ok) return `refused: ${result.diagnostics.map((diagnostic) => `${diagnostic.code} (${diagnostic.message})`).join('; ')}`;
  if ('direct' in expected) {
    return result.plan.nodes.length === 0 && result.plan.directAnswer === expected.direct ? undefined : `read ${JSON.stringify(result.plan)}, not the direct answer`;
  }
  const read = readGraph(result.plan);
  const { verdict: _verdict, ...want } = expected;
  const sortedWant = { ...want, edges: [...want.edges].sort(compareEdges) };
  return JSON.stringify(read) === JSON.stringify(sortedWant) ? undefined : `read ${JSON.stringify(read)}\n  expected ${JSON.stringify(sortedWant)}`;
}

/** Whether the expected reading is exactly what the reference runs (same nodes, edges, data flow). */
function sameAsReference(entry: Case): boolean {
  const { reference, expected } = entry;
  if (reference.verdict !== expected.verdict) return false;
  if (expected.verdict === 'refuses') return true;
  if ('direct' in expected) return reference.direct === expected.direct;
  const expectedInput = new Map(expected.nodes.map((node) => [node.id, node.input]));
  const nodes = (reference.nodes ?? []).map((node) => ({
    id: node.id,
    agent: node.agent,
    input: node.input ?? expectedInput.get(node.id),
    ...(node.agent === 'debate' && Array.isArray(node.roles) && { roles: node.roles }),
  }));
  const edges = [...new Set((reference.edges ?? []).map((edge) => JSON.stringify(edge)))].sort();
  const substituted = nodes.length === 1 ? { [nodes[0]!.id]: [] } : Object.fromEntries(Object.entries(reference.substituted ?? {}).map(([id, refs]) => [id, [...refs].sort()]));
  return (
    JSON.stringify(nodes) === JSON.stringify(expected.nodes) &&
    JSON.stringify(edges) === JSON.stringify(expected.edges.map((edge) => JSON.stringify(edge)).sort()) &&
    reference.sink === expected.answer &&
    JSON.stringify(Object.fromEntries(Object.entries(substituted).sort())) === JSON.stringify(Object.fromEntries(Object.entries(expected.flow).sort()))
  );
}

describe('MAS-Orchestra conformance corpus', () => {
  test('covers every prompt plan, with variations, mutations and truncations', () => {
    const origins = new Map<string, number>();
    for (const entry of cases) origins.set(entry.origin, (origins.get(entry.origin) ?? 0) + 1);
    expect(cases.length).toBeGreaterThanOrEqual(300);
    expect(origins.get('prompt')).toBeGreaterThanOrEqual(35);
    for (const origin of ['variation', 'mutation', 'truncation']) expect(origins.get(origin)).toBeGreaterThanOrEqual(50);
    expect(new Set(cases.map((entry) => entry.id)).size).toBe(cases.length);
  });

  test('orchrm reads every plan as the corpus expects', () => {
    const failures = cases.flatMap((entry) => {
      const problem = mismatch(entry);
      return problem === undefined ? [] : [`${entry.id}: ${problem}`];
    });
    expect(failures.slice(0, 20).join('\n')).toBe('');
    expect(failures.length).toBe(0);
  });

  test('where orchrm reads otherwise than the reference runs, a documented deviation says why', () => {
    const documentation = readFileSync(new URL('../../docs/plan-format.md', import.meta.url), 'utf8');
    const undocumented = [...new Set(cases.flatMap((entry) => entry.deviations))].filter((code) => !documentation.includes(`\`${code}\``));
    expect(undocumented).toEqual([]);
    const unexplained = cases.filter((entry) => entry.deviations.length === 0 && !sameAsReference(entry)).map((entry) => entry.id);
    expect(unexplained).toEqual([]);
  });
});
