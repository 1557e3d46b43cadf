import { describe, expect, test } from 'vitest';
import type { Plan } from '../core/plan.js';
import { canonicalPlanText } from './canonical-plan-text.js';
import { parsePlan, type PlanParseOutcome } from './parse-plan.js';
import { validatePlan } from './validate-plan.js';
import { defaultBlockCatalog } from './block-specs.js';

// Issue 14: plans MAS-Orchestra runs that orchrm used to refuse or misread (docs/plan-format.md).

const agent = (id: string, name: string, input = '', extra = '') =>
  `<agent><agent_id>${id}</agent_id><agent_name>${name}</agent_name><required_arguments><agent_input>${input}</agent_input>${extra}</required_arguments></agent>`;
const edges = (...pairs: [string, string][]) => `<edge>${pairs.map(([from, to]) => `<from>${from}</from><to>${to}</to>`).join('')}</edge>`;
const codes = (result: PlanParseOutcome) => (result.ok ? [] : result.diagnostics.map((diagnostic) => diagnostic.code));
const warnings = (result: PlanParseOutcome) => result.warnings.filter((warning) => warning.code !== 'dom_inferred').map((warning) => `${warning.code} ${warning.path}`);

function read(text: string) {
  const result = parsePlan(text);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.diagnostics)}`);
  return { result, plan: result.plan };
}

describe('plans the reference runs', () => {
  test('an <agent_input> of "" or nothing is the original question', () => {
    expect(read(agent('A', 'CoTAgent', '""')).plan.nodes[0]?.input).toBe('');
    expect(read(agent('A', 'CoTAgent', '  ')).plan.nodes[0]?.input).toBe('');
    expect(read('{"dom": "low", "nodes": [{"id": "A", "agent": "cot", "input": "\\"\\""}]}').plan.nodes[0]?.input).toBe('');
  });

  test('ids are alphanumeric or underscore, so 1, 2 and 3a are ids', () => {
    const { plan } = read(agent('1', 'CoTAgent') + agent('2', 'SCAgent', 'Check ${1}') + agent('3a', 'CoTAgent', 'Answer from ${2}') + edges(['1', '2'], ['2', '3a']));
    expect(plan.nodes.map((node) => node.id)).toEqual(['1', '2', '3a']);
    expect(plan.answer).toBe('3a');
    expect(codes(parsePlan(agent('step 1', 'CoTAgent')))).toEqual(['schema']);
  });

  test('an unclosed <thinking> followed by complete agents is thinking, then a plan', () => {
    const { plan } = read(`<thinking>Search, then reason.\n${agent('S', 'WebSearchAgent', 'Find it')}${agent('F', 'CoTAgent', 'Use ${S}')}${edges(['S', 'F'])}`);
    expect(plan.thinking).toBe('Search, then reason.');
    expect(plan.edges).toEqual([{ from: 'S', to: 'F' }]);
  });

  test('an <agent_input> without its closing tag ends at the next tag, as in two of the reference prompts', () => {
    const text = `<agent><agent_id>A</agent_id><agent_name>CoTAgent</agent_name><required_arguments><agent_input>Extract the number.\n  <tools>["python"]</tools></required_arguments></agent>`;
    const { result, plan } = read(text);
    expect(plan.nodes[0]).toEqual({ id: 'A', agent: 'cot', input: 'Extract the number.', params: {} });
    expect(warnings(result)).toEqual(['ignored_key nodes[0].params.tools']);
  });

  test('tags a block does not read are ignored with a warning the reward model sees', () => {
    const text = agent('A', 'CoTAgent', '', '<agent_model>gpt-oss-120b</agent_model><tools>["search"]</tools><debate_roles>["Pro", "Con"]</debate_roles>');
    const { result, plan } = read(text);
    expect(plan.nodes[0]?.params).toEqual({});
    expect(warnings(result)).toEqual(['ignored_key nodes[0].params.agent_model', 'ignored_key nodes[0].params.tools', 'ignored_key nodes[0].params.debate_roles']);
    expect(canonicalPlanText(text).split('\n').at(-1)).toBe('<!-- warnings: ignored_key -->');
  });

  test('a tag that folds to an Object property name (<Constructor>) is an ignored key, not an internal error', () => {
    const { result, plan } = read(agent('A', 'SCAgent', '', '<Constructor>3</Constructor><to_string>1</to_string>'));
    expect(plan.nodes[0]?.params).toEqual({});
    expect(warnings(result)).toEqual(['ignored_key nodes[0].params.constructor', 'ignored_key nodes[0].params.to_string']);
  });

  test('a ${X} without its edge adds the edge; an edge without ${X} only orders execution', () => {
    const text = agent('A', 'CoTAgent') + agent('B', 'CoTAgent', 'Analyse ${A}') + agent('C', 'CoTAgent', 'Decide from ${B} and ${A}') + agent('D', 'CoTAgent', 'Make the final decision.') + edges(['A', 'B'], ['B', 'C'], ['C', 'D']);
    const { result, plan } = read(text);
    expect(plan.edges).toEqual([
      { from: 'A', to: 'B' },
      { from: 'B', to: 'C' },
      { from: 'C', to: 'D' },
      { from: 'A', to: 'C' },
    ]);
    expect(plan.answer).toBe('D');
    expect(result.warnings.filter((warning) => warning.code === 'ref_edge_mismatch').map((warning) => warning.message)).toMatchInlineSnapshot(`
      [
        "the input uses \${A} but no edge A -> C was written; added it, so "C" runs after "A" and receives its answer",
        "edge C -> D exists but the input of "D" never uses \${C}; "D" runs after "C" without seeing its answer",
      ]
    `);
    expect(canonicalPlanText(text).split('\n').at(-1)).toBe('<!-- warnings: ref_edge_mismatch -->');
  });

  test('a reference against the flow of the edges is a cycle, not a silent literal', () => {
    expect(codes(parsePlan(agent('A', 'CoTAgent', 'Revise ${B}') + agent('B', 'CoTAgent', 'Check ${A}') + edges(['A', 'B'])))).toEqual(['no_start_node', 'cycle']);
  });

  test('LaTeX and ids no node has are text, not references', () => {
    const input = 'If ${(3^k)}^6=3^6, find k. Arc ${AC}$ has length 2; ${ \\frac{1}{2} }';
    const { result, plan } = read(agent('A', 'CoTAgent', input));
    expect(plan.nodes[0]?.input).toBe(input);
    expect(plan.edges).toEqual([]);
    expect(warnings(result)).toEqual(['dangling_ref nodes[0].input']);
    expect(warnings(parsePlan(agent('A', 'CoTAgent', 'Again: ${A}')))).toEqual(['self_reference nodes[0].input']);
  });

  test('CDATA is unwrapped and entities decoded', () => {
    expect(read(agent('A', 'CoTAgent', '<![CDATA[x<3 & y>2]]>')).plan.nodes[0]?.input).toBe('x<3 & y>2');
    expect(read(agent('A', 'CoTAgent', 'x &lt; 3 &amp;&amp; y')).plan.nodes[0]?.input).toBe('x < 3 && y');
  });

  test('the minimal format: <agent_output_id> names the one agent and <answer> names the output', () => {
    const text = `<thinking>Delegate.</thinking><agent><agent_name>SCAgent</agent_name><required_arguments><agent_input></agent_input></required_arguments><agent_output_id>math_agent_output</agent_output_id></agent><answer>math_agent_output</answer>`;
    const { result, plan } = read(text);
    expect(plan).toMatchObject({ nodes: [{ id: 'math_agent_output', agent: 'sc', input: '' }], answer: 'math_agent_output' });
    expect(warnings(result)).toEqual(['id_assigned nodes[0].id', 'key_variant answer']);
  });
});

describe('truncated output is named', () => {
  const three = agent('A', 'CoTAgent') + agent('B', 'CoTAgent', 'Use ${A}') + agent('C', 'CoTAgent', 'Also ${A}');
  test.each([
    ['inside the edge list', `${three}<edge><from>A</from><to>B</to>`],
    ['inside a tag', `${three}<edge><from>A</from><to>B</to><fr`],
    ['inside an input', `${agent('A', 'CoTAgent')}<agent><agent_id>B</agent_id><agent_name>CoTAgent</agent_name><agent_input>Use \${A} to`],
    ['after the agents, before the edges', three],
    ['inside the thinking', '<thinking>First I will'],
    ['inside a JSON string', '{"dom": "high", "nodes": [{"id": "A", "agent": "cot", "input": "Solve'],
  ])('%s', (_where, text) => {
    const result = parsePlan(text);
    expect(codes(result)).toEqual(['truncated']);
    if (!result.ok) expect(result.diagnostics[0]?.message).toMatch(/token limit/);
  });

  test('a plan that was finished is not', () => {
    expect(parsePlan(`${three}${edges(['A', 'B'], ['A', 'C'])}`)).toMatchObject({ ok: false, diagnostics: [{ code: 'multiple_sinks' }] });
  });
});

describe('plans built in code', () => {
  const catalog = defaultBlockCatalog();
  const plan: Plan = {
    dom: 'high',
    nodes: [
      { id: 'A', agent: 'cot', input: '', params: {} },
      { id: 'B', agent: 'cot', input: 'Check ${A}', params: {} },
    ],
    edges: [],
  };

  test('a ${X} counts as its edge when validating and rendering', () => {
    expect(validatePlan(plan, catalog)).toEqual([]);
    expect(canonicalPlanText(plan)).toContain('<edge>\n  <from>A</from>\n  <to>B</to>\n</edge>\n<answer_node>B</answer_node>\n<!-- warnings: ref_edge_mismatch -->');
    expect(canonicalPlanText(plan)).toBe(canonicalPlanText(canonicalPlanText(plan).replace(/\n<!--.*-->$/, '').replace('<edge>\n  <from>A</from>\n  <to>B</to>\n</edge>\n', '')));
  });
});
