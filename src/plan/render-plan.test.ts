import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Plan } from '../core/plan.js';
import { createBlockCatalog } from './block-specs.js';
import { canonicalizePlan } from './canonicalize-plan.js';
import { parsePlan } from './parse-plan.js';
import { renderInvalidPlan, renderParseResult, renderPlan } from './render-plan.js';
import { validPlan } from './test-fixtures/plan-arbitrary.js';
import { validatePlan } from './validate-plan.js';

const catalog = createBlockCatalog();

describe('renderPlan', () => {
  test('render -> parse gives back the canonical plan, and rendering is idempotent', () => {
    fc.assert(
      fc.property(validPlan, fc.boolean(), (plan, includeThinking) => {
        expect(validatePlan(plan, catalog)).toEqual([]);
        const options = { includeThinking };
        const text = renderPlan(plan, catalog, options);
        const parsed = parsePlan(text, { catalog });
        expect(parsed).toMatchObject({ ok: true, format: 'xml', warnings: [] });
        if (!parsed.ok) return;
        expect(parsed.plan).toEqual(canonicalizePlan(plan, catalog, options));
        expect(renderPlan(parsed.plan, catalog, options)).toBe(text);
      }),
      { numRuns: 300, seed: 20_260_613 },
    );
  });

  test('formatting noise does not change the rendering', () => {
    const tidy: Plan = {
      dom: 'high',
      nodes: [
        { id: 'B', agent: 'search', input: 'Find X', params: {} },
        { id: 'C', agent: 'cot', input: 'Compute Y', params: { temperature: 0.5 } },
        { id: 'A', agent: 'debate', input: 'Compare ${B} with ${C}', params: { roles: ['P', 'Q'] } },
      ],
      edges: [
        { from: 'B', to: 'A' },
        { from: 'C', to: 'A' },
      ],
      answer: 'A',
    };
    const noisy: Plan = {
      dom: 'high',
      thinking: 'Some reasoning that should not matter.',
      nodes: [
        { id: 'A', agent: 'DebateAgent', input: '  Compare\n ${B}   with ${C} ', params: { rounds: 5, roles: ['P', 'Q'] } },
        { id: 'C', agent: 'CoTAgent', input: 'Compute\tY', params: {} },
        { id: 'B', agent: 'SearchAgent', input: 'Find X\n', params: { topK: 5, maxIterations: 5 } },
      ],
      edges: [
        { from: 'C', to: 'A' },
        { from: 'B', to: 'A' },
        { from: 'C', to: 'A' },
      ],
    };
    expect(renderPlan(noisy, catalog)).toBe(renderPlan(tidy, catalog));
    expect(renderPlan(tidy, catalog)).toMatchInlineSnapshot(`
      "<dom>high</dom>
      <agent>
        <agent_id>B</agent_id>
        <agent_name>search</agent_name>
        <required_arguments>
          <agent_input>Find X</agent_input>
          <maxIterations>5</maxIterations>
          <temperature>0.5</temperature>
          <topK>5</topK>
        </required_arguments>
      </agent>
      <agent>
        <agent_id>C</agent_id>
        <agent_name>cot</agent_name>
        <required_arguments>
          <agent_input>Compute Y</agent_input>
          <temperature>0.5</temperature>
        </required_arguments>
      </agent>
      <agent>
        <agent_id>A</agent_id>
        <agent_name>debate</agent_name>
        <required_arguments>
          <agent_input>Compare \${B} with \${C}</agent_input>
          <roles>["P","Q"]</roles>
          <rounds>5</rounds>
          <temperature>0.5</temperature>
        </required_arguments>
      </agent>
      <edge>
        <from>B</from>
        <to>A</to>
      </edge>
      <edge>
        <from>C</from>
        <to>A</to>
      </edge>
      <answer_node>A</answer_node>"
    `);
  });

  test('thinking is included only when asked for', () => {
    const plan: Plan = { dom: 'low', thinking: 'Known fact.', nodes: [], edges: [], directAnswer: ' 1024 ' };
    expect(renderPlan(plan, catalog)).toBe('<dom>low</dom>\n<answer>1024</answer>');
    expect(renderPlan(plan, catalog, { includeThinking: true })).toBe('<thinking>Known fact.</thinking>\n<dom>low</dom>\n<answer>1024</answer>');
  });
});

describe('renderInvalidPlan', () => {
  test('lists the distinct codes, sorted', () => {
    const diagnostic = (code: 'cycle' | 'dangling_ref') => ({ code, message: 'm', path: 'p' });
    expect(renderInvalidPlan([diagnostic('dangling_ref'), diagnostic('cycle'), diagnostic('dangling_ref')])).toBe('INVALID PLAN: cycle, dangling_ref');
    expect(renderInvalidPlan([])).toBe('INVALID PLAN');
  });

  test('renderParseResult renders either outcome', () => {
    expect(renderParseResult(parsePlan('{"dom": "low", "nodes": [{"id": "A", "agent": "Oracle"}]}'), catalog)).toBe('INVALID PLAN: unknown_agent');
    expect(renderParseResult(parsePlan('{"dom": "low", "answer": "7"}'), catalog)).toBe('<dom>low</dom>\n<answer>7</answer>');
  });
});
