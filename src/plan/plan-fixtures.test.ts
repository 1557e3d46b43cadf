import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parsePlan, type PlanParseOutcome } from './parse-plan.js';

const fixture = (name: string) => readFileSync(new URL(`./test-fixtures/${name}`, import.meta.url), 'utf8');
const warningCodes = (result: PlanParseOutcome) => result.warnings.map((warning) => warning.code);

function parsed(name: string) {
  const result = parsePlan(fixture(name));
  if (!result.ok) throw new Error(`${name} did not parse: ${JSON.stringify(result.diagnostics)}`);
  return { result, plan: result.plan };
}

describe('JSON fixtures', () => {
  test('a fenced plan after prose', () => {
    const { result, plan } = parsed('json-fenced.txt');
    expect(result.format).toBe('json');
    expect(warningCodes(result)).toEqual([]);
    expect(plan.nodes.map((node) => [node.id, node.agent, node.params])).toEqual([
      ['enumerate', 'cot', { temperature: 0.2 }],
      ['count', 'sc', { samples: 7 }],
      ['final', 'reflexion', { maxRounds: 2 }],
    ]);
    expect(plan.nodes[1]?.input).toBe('Given these outcomes: ${enumerate}\nCount how many sums are prime (2, 3, 5, 7, 11).');
    expect(plan.answer).toBe('final');
    expect(plan.thinking).toMatch(/^Enumerate sums/);
  });

  test('a bare plan after prose that contains braces', () => {
    const { result, plan } = parsed('json-after-prose.txt');
    expect(warningCodes(result)).toEqual([]);
    expect(plan).toEqual({
      dom: 'high',
      nodes: [
        { id: 'S', agent: 'search', input: 'Height of the Eiffel Tower in metres', params: { topK: 3 } },
        { id: 'M', agent: 'cot', input: 'The Eiffel Tower is ${S} tall. How many 1.8 m people stacked would reach the top?', params: {} },
      ],
      edges: [{ from: 'S', to: 'M' }],
      answer: 'M',
    });
  });

  test('trailing commas, single quotes and comments are repaired', () => {
    const { result, plan } = parsed('json-repaired.txt');
    expect(warningCodes(result)).toEqual(['json_repaired']);
    expect(plan.nodes[1]).toEqual({
      id: 'judge',
      agent: 'debate',
      input: 'Using ${facts}, did the treaty create the euro?',
      params: { roles: ['Historian', 'Economist'], rounds: 3 },
    });
  });

  test('key variants are read, each reported once', () => {
    const { result, plan } = parsed('json-variants.txt');
    expect(plan).toEqual({
      dom: 'high',
      thinking: 'Retrieve, then verify the retrieved claim.',
      nodes: [
        { id: 'R', agent: 'search', input: 'Who directed the film that won Best Picture in 1998?', params: { topK: 4 } },
        { id: 'V', agent: 'reflexion', input: 'Check this claim: ${R}', params: { maxRounds: 3 } },
      ],
      edges: [{ from: 'R', to: 'V' }],
      answer: 'V',
    });
    expect(result.warnings.map((warning) => `${warning.code} ${warning.path}`)).toMatchInlineSnapshot(`
      [
        "key_variant nodes",
        "key_variant nodes[0].id",
        "key_variant nodes[0].agent",
        "key_variant nodes[0].input",
        "key_variant nodes[0].top_k",
        "key_variant nodes[1].params",
        "param_coerced nodes[1].params.maxRounds",
        "key_variant edges[0].from",
        "key_variant edges[0].to",
        "key_variant dom",
        "key_variant thinking",
        "key_variant answer",
      ]
    `);
  });

  test('a low-DoM direct answer', () => {
    const { result, plan } = parsed('json-direct-answer.txt');
    expect(plan).toEqual({ dom: 'low', nodes: [], edges: [], directAnswer: '42' });
    expect(warningCodes(result)).toEqual(['key_variant']);
  });

  test('a plan whose closing brace never came is refused as truncated, not repaired', () => {
    const result = parsePlan(fixture('json-truncated.txt'));
    expect(result).toMatchObject({ ok: false, format: 'json', diagnostics: [{ code: 'truncated' }] });
  });

  test('the last plan wins over an example in prose', () => {
    const { result, plan } = parsed('json-two-plans.txt');
    expect(warningCodes(result)).toEqual(['multiple_plans']);
    expect(plan.nodes).toEqual([{ id: 'A', agent: 'sc', input: '', params: { samples: 9 } }]);
  });
});

describe('XML fixtures', () => {
  test('the reference format with a debate agent', () => {
    const { result, plan } = parsed('xml-reference.txt');
    expect(result.format).toBe('xml');
    expect(warningCodes(result)).toEqual([]);
    expect(plan.dom).toBe('high');
    expect(plan.thinking).toMatch(/^The question mixes economics/);
    expect(plan.nodes).toEqual([
      {
        id: 'B',
        agent: 'search',
        input: 'US steel prices before and after the 2018 Section 232 tariff',
        params: { topK: 5 },
        description: 'Collects price data before and after the 2018 steel tariff.',
      },
      {
        id: 'A',
        agent: 'debate',
        input: 'Using the data ${B}, did the 2018 steel tariff raise US steel prices by more than 10%?',
        params: { roles: ['Economist', 'Analyst'], rounds: 3 },
        description: 'Debates the effect using the data.',
      },
    ]);
    expect(plan.edges).toEqual([{ from: 'B', to: 'A' }]);
    expect(plan.answer).toBe('A');
  });

  test('the reference diamond with <from>/<to> outside <edge>', () => {
    const { result, plan } = parsed('xml-diamond-no-wrapper.txt');
    expect(warningCodes(result)).toEqual(['edge_without_wrapper']);
    expect(plan.edges).toEqual([
      { from: 'A', to: 'B' },
      { from: 'A', to: 'C' },
      { from: 'B', to: 'D' },
      { from: 'C', to: 'D' },
    ]);
    expect(plan.nodes.map((node) => node.agent)).toEqual(['cot', 'cot', 'sc', 'reflexion']);
    expect(plan.nodes[1]?.input).toBe('Using ${A}, solve the case x < 0 && y > 0.');
    expect(plan.nodes[2]?.params).toEqual({ samples: 3 });
    expect(plan.answer).toBe('D');
  });

  test('several <edge> blocks in a fence after prose are merged', () => {
    const { result, plan } = parsed('xml-multiple-edge-blocks.txt');
    expect(warningCodes(result)).toEqual([]);
    expect(plan.edges).toEqual([
      { from: 'find_1', to: 'compare' },
      { from: 'find_2', to: 'compare' },
    ]);
    expect(plan.nodes.map((node) => node.params)).toEqual([{ maxIterations: 3 }, {}, { temperature: 0.3 }]);
    expect(plan.nodes[0]?.input).toBe('Birth year of the author of "Middlemarch"');
  });

  test('a low-DoM direct answer', () => {
    const { plan } = parsed('xml-direct-answer.txt');
    expect(plan).toEqual({ dom: 'low', thinking: '2^10 is a well-known value; no agents are needed.', nodes: [], edges: [], directAnswer: '1024' });
  });

  test('inputs holding code with <, & and tag-like text are kept as written', () => {
    const { plan } = parsed('xml-code-text.txt');
    expect(plan.nodes[0]?.input).toBe(
      'What does this print? for (let i = 0; i<3; i++) { if (a<b && b > c) console.log("<b>" + i + "</b>"); } Use AT&T style & explain.',
    );
  });
});

describe('XML tolerance', () => {
  const agent = (id: string, name: string, input = '') =>
    `<agent><agent_id>${id}</agent_id><agent_name>${name}</agent_name><required_arguments><agent_input>${input}</agent_input></required_arguments></agent>`;

  test('a missing </agent> does not swallow the next agent', () => {
    const text = `<dom>high</dom><agent><agent_id>A</agent_id><agent_name>cot</agent_name>${agent('B', 'cot', '${A}')}<edge><from>A</from><to>B</to></edge>`;
    const result = parsePlan(text);
    expect(result.ok && result.plan.nodes.map((node) => [node.id, node.params])).toEqual([
      ['A', {}],
      ['B', {}],
    ]);
  });

  test('tag names ignore case, ids may be written as ${id}, nested role lists are read', () => {
    const text = `<DOM>High</DOM>${agent('A', 'CoTAgent')}<Agent><Agent_ID>B</Agent_ID><Agent_Name>LLMDebate</Agent_Name><Required_Arguments><Agent_Input>\${A}</Agent_Input><debate_roles><role>Pro</role><role>Con</role></debate_roles><Max_Rounds>2</Max_Rounds></Required_Arguments></Agent><edge><from>\${A}</from><to>B</to></edge><final_agent>B</final_agent>`;
    const result = parsePlan(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.plan.nodes[1]).toEqual({ id: 'B', agent: 'debate', input: '${A}', params: { roles: ['Pro', 'Con'], rounds: 2 } });
    expect(result.plan.answer).toBe('B');
  });

  test('comma-separated roles are read as a list with a warning', () => {
    const text = `<dom>low</dom><agent><agent_id>A</agent_id><agent_name>debate</agent_name><debate_roles>Economist, Analyst</debate_roles></agent>`;
    const result = parsePlan(text);
    expect(result.ok && result.plan.nodes[0]?.params).toEqual({ roles: ['Economist', 'Analyst'] });
    expect(warningCodes(result)).toEqual(['param_coerced']);
  });

  test('a missing DoM is inferred, or taken from the options', () => {
    const single = agent('A', 'cot');
    const inferred = parsePlan(single);
    expect(inferred.ok && inferred.plan.dom).toBe('low');
    expect(warningCodes(inferred)).toEqual(['dom_inferred']);
    const asked = parsePlan(single, { dom: 'high' });
    expect(asked.ok && asked.plan.dom).toBe('high');
  });

  test('repeated edges are kept once', () => {
    const text = `<dom>high</dom>${agent('A', 'cot')}${agent('B', 'cot', '${A}')}<edge><from>A</from><to>B</to></edge><edge><from>A</from><to>B</to></edge>`;
    const result = parsePlan(text);
    expect(result.ok && result.plan.edges).toEqual([{ from: 'A', to: 'B' }]);
    expect(warningCodes(result)).toEqual(['duplicate_edge']);
  });
});
