import { describe, expect, test } from 'vitest';
import { parsePlan } from './parse-plan.js';
import { MAX_PLAN_EDGES, MAX_PLAN_NODES, MAX_REPAIR_CHARS } from './plan-limits.js';

const jsonNodes = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `N${index}`, agent: 'cot', input: '' }));
const xmlAgents = (count: number) => Array.from({ length: count }, (_, index) => `<agent><agent_id>N${index}</agent_id><agent_name>cot</agent_name></agent>`).join('');
const codes = (result: ReturnType<typeof parsePlan>) => (result.ok ? [] : result.diagnostics.map((diagnostic) => diagnostic.code));

describe('structural limits', () => {
  test('a JSON plan with more nodes than MAX_PLAN_NODES is too_large, naming the count and the limit', () => {
    const result = parsePlan(JSON.stringify({ dom: 'high', nodes: jsonNodes(MAX_PLAN_NODES + 1), edges: [], answer: 'N0' }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ code: 'too_large', path: 'nodes' });
    expect(result.diagnostics[0]!.message).toContain(`${MAX_PLAN_NODES + 1} nodes`);
    expect(result.diagnostics[0]!.message).toContain(`limit of ${MAX_PLAN_NODES} (MAX_PLAN_NODES)`);
  });

  test('nodes written as an object keyed by id are counted too', () => {
    const nodes = Object.fromEntries(jsonNodes(MAX_PLAN_NODES + 1).map(({ id, ...node }) => [id, node]));
    expect(codes(parsePlan(JSON.stringify({ dom: 'high', nodes, answer: 'N0' })))).toEqual(['too_large']);
  });

  test('a plan exactly at MAX_PLAN_NODES is not refused for its size', () => {
    const result = parsePlan(JSON.stringify({ dom: 'high', nodes: jsonNodes(MAX_PLAN_NODES), edges: [], answer: 'N0' }));
    expect(codes(result)).not.toContain('too_large');
  });

  test('a JSON plan with more edges than MAX_PLAN_EDGES is too_large', () => {
    const edges = Array.from({ length: MAX_PLAN_EDGES + 1 }, () => ({ from: 'A', to: 'B' }));
    const result = parsePlan(JSON.stringify({ dom: 'high', nodes: jsonNodes(2), edges, answer: 'N1' }));
    expect(result).toMatchObject({ ok: false, diagnostics: [{ code: 'too_large', path: 'edges' }] });
    if (!result.ok) expect(result.diagnostics[0]!.message).toContain(`limit of ${MAX_PLAN_EDGES} (MAX_PLAN_EDGES)`);
  });

  test('XML with more <agent> blocks than MAX_PLAN_NODES is too_large', () => {
    const result = parsePlan(`<dom>high</dom>${xmlAgents(MAX_PLAN_NODES + 1)}`);
    expect(result).toMatchObject({ ok: false, format: 'xml', diagnostics: [{ code: 'too_large', path: 'nodes' }] });
    if (!result.ok) expect(result.diagnostics[0]!.message).toContain(`more than ${MAX_PLAN_NODES} nodes`);
    expect(codes(parsePlan(`<dom>high</dom>${xmlAgents(MAX_PLAN_NODES)}`))).not.toContain('too_large');
  });

  test('an <edge> with more <from> tags than MAX_PLAN_EDGES is too_large, not unbalanced_edge', () => {
    const result = parsePlan(`${xmlAgents(2)}<edge>${'<from>N0</from>'.repeat(MAX_PLAN_EDGES + 1)}</edge>`);
    expect(result).toMatchObject({ ok: false, diagnostics: [{ code: 'too_large', path: 'edges' }] });
    if (!result.ok) expect(result.diagnostics[0]!.message).toContain('MAX_PLAN_EDGES');
  });

  test('broken JSON longer than MAX_REPAIR_CHARS is too_large; strict JSON of that size is read', () => {
    const input = 'a'.repeat(MAX_REPAIR_CHARS);
    const strict = JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'cot', input }], edges: [], answer: 'A' });
    expect(parsePlan(strict)).toMatchObject({ ok: true, plan: { nodes: [{ input }] } });
    const broken = `${strict.slice(0, -1)},}`;
    const result = parsePlan(broken);
    expect(result).toMatchObject({ ok: false, diagnostics: [{ code: 'too_large' }] });
    if (!result.ok) expect(result.diagnostics[0]!.message).toContain('MAX_REPAIR_CHARS');
  });
});
