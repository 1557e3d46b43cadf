import { describe, expect, test } from 'vitest';
import type { Dom } from '../core/plan.js';
import { parsePlan } from './parse-plan.js';

/** A JSON plan text from nodes and edges, keeping the rest of the plan well-formed. */
const json = (plan: Record<string, unknown>) => JSON.stringify({ dom: 'high', edges: [], ...plan });
const node = (id: string, agent: string, input = '', params: Record<string, unknown> = {}) => ({ id, agent, input, params });
const edge = (from: string, to: string) => ({ from, to });

interface MalformedCase {
  name: string;
  text: string;
  codes: string[];
  format?: 'auto' | 'json' | 'xml';
  dom?: Dom;
  maxInputChars?: number;
}

const cases: MalformedCase[] = [
  { name: 'empty output', text: '', codes: ['empty_output'] },
  { name: 'whitespace only', text: '  \n\t ', codes: ['empty_output'] },
  { name: 'prose without a plan', text: 'I think the answer is probably 12.', codes: ['no_plan_found'] },
  { name: 'JSON that is not a plan', text: 'Result: {"score": 3, "ok": true}', codes: ['no_plan_found'] },
  { name: 'JSON beyond repair', text: '{"nodes": [{"id": "A"}], "edges": {{{}', codes: ['json_syntax'] },
  { name: 'XML with thinking only', text: '<thinking>I am not sure what to do.</thinking>', codes: ['no_plan_found'] },
  {
    name: 'XML agent fields without an <agent> wrapper',
    text: '<dom>low</dom><agent_id>A</agent_id><agent_name>CoTAgent</agent_name>',
    codes: ['xml_syntax'],
  },
  { name: 'nodes is not a list', text: '{"dom": "high", "nodes": "first search, then reason"}', codes: ['schema'] },
  { name: 'node without an agent', text: json({ nodes: [{ id: 'A', input: 'x' }] }), codes: ['schema'] },
  { name: 'node id with a space', text: json({ dom: 'low', nodes: [node('step 1', 'cot')] }), codes: ['schema'] },
  { name: 'DoM that is neither low nor high', text: json({ dom: 'medium', nodes: [node('A', 'cot')] }), codes: ['schema'] },
  { name: 'no nodes and no direct answer', text: '{"dom": "low", "nodes": []}', codes: ['schema'] },
  {
    name: 'XML agent without a name',
    text: '<dom>low</dom><agent><agent_id>A</agent_id><required_arguments><agent_input>x</agent_input></required_arguments></agent>',
    codes: ['schema'],
  },
  {
    name: 'unbalanced <from>/<to> in an edge block',
    text: '<agent><agent_id>A</agent_id><agent_name>cot</agent_name></agent><agent><agent_id>B</agent_id><agent_name>cot</agent_name></agent><agent><agent_id>C</agent_id><agent_name>cot</agent_name><agent_input>${A} ${B}</agent_input></agent><edge><from>A</from><from>B</from><to>C</to></edge>',
    codes: ['unbalanced_edge'],
  },
  {
    name: 'duplicate ids',
    text: json({ nodes: [node('A', 'cot'), node('A', 'sc'), node('B', 'cot', '${A}')], edges: [edge('A', 'B')] }),
    codes: ['duplicate_id'],
  },
  { name: 'unknown agent name', text: json({ dom: 'low', nodes: [node('A', 'PlannerAgent')] }), codes: ['unknown_agent'] },
  {
    name: 'edge to an undeclared node',
    text: json({ dom: 'low', nodes: [node('A', 'cot')], edges: [edge('A', 'Z')] }),
    codes: ['dangling_edge'],
  },
  {
    name: 'every node has an incoming edge',
    text: json({ nodes: [node('A', 'cot', '${B}'), node('B', 'cot', '${A}')], edges: [edge('A', 'B'), edge('B', 'A')] }),
    codes: ['no_start_node', 'cycle'],
  },
  { name: 'two final nodes', text: json({ nodes: [node('A', 'cot'), node('B', 'sc')] }), codes: ['multiple_sinks'] },
  {
    name: 'nodes behind a cycle are unreachable',
    text: json({
      nodes: [node('S', 'cot'), node('F', 'cot', '${S}'), node('B', 'cot', '${C}'), node('C', 'cot', '${B}')],
      edges: [edge('S', 'F'), edge('B', 'C'), edge('C', 'B')],
    }),
    codes: ['unreachable_node', 'unreachable_node', 'cycle'],
  },
  { name: 'debate without roles', text: json({ dom: 'low', nodes: [node('A', 'DebateAgent')] }), codes: ['missing_param'] },
  {
    name: 'debate with a single role',
    text: json({ dom: 'low', nodes: [node('A', 'debate', '', { roles: ['Judge'] })] }),
    codes: ['invalid_params'],
  },
  {
    name: 'an ill-typed param (an unknown one is only a warning)',
    text: json({ dom: 'low', nodes: [node('A', 'sc', '', { samples: 'many', style: 'terse' })] }),
    codes: ['invalid_params'],
  },
  {
    name: 'a reference against the flow of the edges is a cycle',
    text: json({ nodes: [node('A', 'cot', 'Revise ${B}'), node('B', 'cot', 'Check ${A}')], edges: [edge('A', 'B')] }),
    codes: ['no_start_node', 'cycle'],
  },
  {
    name: 'XML cut off inside an agent input',
    text: '<agent><agent_id>A</agent_id><agent_name>CoTAgent</agent_name><required_arguments><agent_input>Find the area of',
    codes: ['truncated'],
  },
  {
    name: 'XML cut off in the edge list (not reported as two sinks)',
    text: `${['A', 'B', 'C'].map((id, index) => `<agent><agent_id>${id}</agent_id><agent_name>CoTAgent</agent_name><agent_input>${index === 0 ? '' : 'Use ${A}'}</agent_input></agent>`).join('')}<edge><from>A</from><to>B</to>`,
    codes: ['truncated'],
  },
  {
    name: 'XML cut off while writing a tag',
    text: '<agent><agent_id>A</agent_id><agent_name>CoTAgent</agent_name></agent><edge><fro',
    codes: ['truncated'],
  },
  { name: 'thinking cut off before any plan', text: '<thinking>First I will search for the', codes: ['truncated'] },
  { name: 'JSON cut off inside a string', text: '{"dom": "high", "nodes": [{"id": "A", "agent": "cot", "input": "Solve', codes: ['truncated'] },
  { name: 'JSON cut off after a comma', text: '{"dom": "high", "nodes": [{"id": "A", "agent": "cot"},', codes: ['truncated'] },
  { name: 'JSON cut off after a whole node', text: '{"dom": "high", "nodes": [{"id": "A", "agent": "cot"}', codes: ['truncated'] },
  {
    name: 'XML cut off after its agents, before the edge block',
    text: `<agent><agent_id>A</agent_id><agent_name>CoTAgent</agent_name></agent>\n<agent><agent_id>B</agent_id><agent_name>CoTAgent</agent_name><agent_input>Check \${A}</agent_input></agent>\n`,
    codes: ['truncated'],
  },
  {
    name: 'low DoM with two agents',
    text: json({ dom: 'low', nodes: [node('A', 'cot'), node('B', 'cot', '${A}')], edges: [edge('A', 'B')] }),
    codes: ['dom_violation'],
  },
  {
    name: 'low DoM asked for, high DoM written',
    text: json({ nodes: [node('A', 'cot'), node('B', 'cot', '${A}')], edges: [edge('A', 'B')] }),
    dom: 'low',
    codes: ['dom_violation'],
  },
  {
    name: 'answer node with an outgoing edge',
    text: json({ nodes: [node('A', 'cot'), node('B', 'cot', '${A}')], edges: [edge('A', 'B')], answer: 'A' }),
    codes: ['answer_not_sink'],
  },
  { name: 'answer names no node', text: json({ dom: 'low', nodes: [node('A', 'cot')], answer: 'final' }), codes: ['answer_not_sink'] },
  { name: 'input over the size cap', text: json({ dom: 'low', directAnswer: 'x'.repeat(200) }), maxInputChars: 100, codes: ['too_large'] },
  { name: 'XML forced on a JSON plan', text: json({ dom: 'low', nodes: [node('A', 'cot')] }), format: 'xml', codes: ['no_plan_found'] },
];

describe('malformed plans', () => {
  test('the corpus is large enough', () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
  });

  test.each(cases)('$name', ({ text, codes, format, dom, maxInputChars }) => {
    const result = parsePlan(text, { format: format ?? 'auto', ...(dom && { dom }), ...(maxInputChars && { maxInputChars }) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(codes);
    for (const diagnostic of result.diagnostics) expect(diagnostic.message.length).toBeGreaterThan(20);
  });
});

describe('diagnostic details', () => {
  test('all problems of a broken plan are collected, each located', () => {
    const text = json({
      dom: 'low',
      nodes: [node('A', 'debate', 'Use ${Q}'), node('A', 'Oracle'), node('B', 'sc', '', { samples: 0 })],
      edges: [edge('B', 'Z'), edge('A', 'B')],
    });
    const result = parsePlan(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics).toMatchInlineSnapshot(`
      [
        {
          "code": "missing_param",
          "message": "block "debate" needs params.roles: a list of at least 2 items such as ["Optimist", "Skeptic"]",
          "path": "nodes[0].params.roles",
        },
        {
          "code": "duplicate_id",
          "message": "node id "A" is also used by nodes[0]; give every node a unique id",
          "path": "nodes[1].id",
        },
        {
          "code": "unknown_agent",
          "message": "no block is named "Oracle"; use one of: cot, sc, reflexion, debate, search",
          "path": "nodes[1].agent",
        },
        {
          "code": "invalid_params",
          "message": "Too small: expected number to be >=1; give an integer",
          "path": "nodes[2].params.samples",
        },
        {
          "code": "dangling_edge",
          "message": "edge B -> Z names "Z", which is not a node; declare it or fix the id",
          "path": "edges[0].to",
        },
        {
          "code": "dom_violation",
          "message": "the plan says low DoM, which allows at most one agent, but the plan has 3; answer directly or keep a single agent",
          "path": "dom",
        },
      ]
    `);
  });

  test('a cycle is named along its edges', () => {
    const text = json({
      nodes: [node('S', 'cot'), node('A', 'cot', '${S} ${C}'), node('B', 'cot', '${A}'), node('C', 'cot', '${B}'), node('F', 'cot', '${B}')],
      edges: [edge('S', 'A'), edge('C', 'A'), edge('A', 'B'), edge('B', 'C'), edge('B', 'F')],
    });
    const result = parsePlan(text);
    expect(result.ok ? [] : result.diagnostics.filter((diagnostic) => diagnostic.code === 'cycle')).toMatchInlineSnapshot(`
      [
        {
          "code": "cycle",
          "message": "the edges form a cycle B -> C -> A -> B; plans must be acyclic, so remove one of these edges",
          "path": "edges[2]",
        },
      ]
    `);
  });
});
