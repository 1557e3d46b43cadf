import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/index.js';
import { defaultBlockCatalog } from '../../plan/index.js';
import { parseEncoderSpec } from './encoder-spec.js';
import { FeatureAccumulator } from './feature-accumulator.js';
import { FeaturePipeline } from './feature-pipeline.js';
import { analyzePlan, planPrefix } from './plan-analysis.js';
import { structureFeatures } from './structure-encoder.js';
import { analyzeTask } from './task-analysis.js';

const catalog = defaultBlockCatalog();
const TASK = 'Juno has 12 apples and buys 30 more. How many apples does she have?';
const JSON_PLAN = JSON.stringify({
  dom: 'high',
  nodes: [
    { id: 'A', agent: 'SCAgent', input: 'Count   the apples', params: { samples: 3 } },
    { id: 'B', agent: 'cot', input: 'Check ${A}' },
  ],
  edges: [{ from: 'A', to: 'B' }],
  answer: 'B',
});
const XML_PLAN = `<dom>high</dom>
<agent><agent_id>A</agent_id><agent_name>sc</agent_name><required_arguments><agent_input>Count the apples</agent_input><samples>3</samples></required_arguments></agent>
<agent><agent_id>B</agent_id><agent_name>CoTAgent</agent_name><required_arguments><agent_input>Check \${A}</agent_input></required_arguments></agent>
<edge><from>A</from><to>B</to></edge>`;

function encode(pipeline: FeaturePipeline, task: string, plan: string) {
  const count = pipeline.encode(pipeline.analyzeTask(task), analyzePlan(plan, catalog));
  return { indices: Array.from(pipeline.indices.subarray(0, count)), values: Array.from(pipeline.values.subarray(0, count)) };
}

describe('FeatureAccumulator', () => {
  it('sums duplicates, sorts, drops exact cancellations and resets', () => {
    const accumulator = new FeatureAccumulator(16);
    for (const [index, value] of [[9, 1], [2, 0.5], [9, 1], [4, 1], [4, -1]] as const) accumulator.add(index, value);
    const indices = new Uint32Array(8);
    const values = new Float32Array(8);
    expect(accumulator.finish(indices, values, 0)).toBe(2);
    expect(Array.from(indices.subarray(0, 2))).toEqual([2, 9]);
    expect(Array.from(values.subarray(0, 2))).toEqual([0.5, 2]);
    accumulator.add(3, 1);
    expect(accumulator.finish(indices, values, 0)).toBe(1);
    expect(indices[0]).toBe(3);
  });

  it('writes indices in ascending order for examples of every size, as sorting them by value does', () => {
    const accumulator = new FeatureAccumulator(1 << 18);
    const rng = new Rng(3);
    for (const size of [0, 1, 2, 15, 16, 17, 40, 170, 1000, 5000]) {
      const added = new Set<number>();
      for (let draw = 0; draw < size; draw++) {
        const index = Math.floor(rng.next() * (1 << 18));
        added.add(index);
        accumulator.add(index, 1);
      }
      const indices = new Uint32Array(size);
      const count = accumulator.finish(indices, new Float32Array(size), 0);
      expect(Array.from(indices.subarray(0, count))).toEqual([...added].sort((a, b) => a - b));
    }
    // Indices added already sorted, reversed, and in organ-pipe order.
    const ascending = Array.from({ length: 600 }, (_, index) => index * 7);
    for (const order of [ascending, [...ascending].reverse(), [...ascending.filter((_, i) => i % 2 === 0), ...ascending.filter((_, i) => i % 2 === 1).reverse()]]) {
      for (const index of order) accumulator.add(index, 1);
      const indices = new Uint32Array(order.length);
      accumulator.finish(indices, new Float32Array(order.length), 0);
      expect(Array.from(indices)).toEqual(ascending);
    }
  });
});

describe('FeaturePipeline', () => {
  const pipeline = new FeaturePipeline(parseEncoderSpec('words:1-2,chars:3-5,structure,task-stats,cross,bits:16'));

  it('gives the same features to the same plan written as JSON or XML (canonical rendering)', () => {
    expect(analyzePlan(JSON_PLAN, catalog).text).toBe(analyzePlan(XML_PLAN, catalog).text);
    expect(encode(pipeline, TASK, JSON_PLAN)).toEqual(encode(pipeline, TASK, XML_PLAN));
  });

  it('writes sorted, distinct indices inside the hashed space', () => {
    const { indices } = encode(pipeline, TASK, JSON_PLAN);
    expect(indices.length).toBeGreaterThan(100);
    for (let position = 1; position < indices.length; position++) expect(indices[position]!).toBeGreaterThan(indices[position - 1]!);
    expect(indices.at(-1)!).toBeLessThan(pipeline.dimension);
  });

  it('depends on the task only through task features', () => {
    const planOnly = new FeaturePipeline(parseEncoderSpec('words:1-2@plan,structure,bits:16'));
    expect(encode(planOnly, TASK, JSON_PLAN)).toEqual(encode(planOnly, 'Who wrote the novel?', JSON_PLAN));
    expect(encode(pipeline, TASK, JSON_PLAN)).not.toEqual(encode(pipeline, 'Who wrote the novel?', JSON_PLAN));
  });

  it('encodes invalid plans by their diagnostic codes', () => {
    const invalid = analyzePlan('<agent><agent_id>A</agent_id><agent_name>Wizard</agent_name></agent>', catalog);
    expect(invalid.text).toBe('INVALID PLAN: unknown_agent');
    expect(structureFeatures(invalid)).toEqual([['invalid', 1], ['diag:unknown_agent', 1]]);
    expect(encode(pipeline, TASK, 'not a plan at all').indices.length).toBeGreaterThan(0);
  });
});

describe('analyses', () => {
  it('task statistics bucket lengths and find numbers and question words', () => {
    expect(analyzeTask(TASK).statNames).toEqual(['task=any', 'chars=6', 'words=3', 'numbers=2', 'sentences=2', 'capitalized=1', 'operators=0', 'question_mark', 'question=how', 'question=many']);
  });

  it('structure features count blocks, depth, fan-in and params', () => {
    const names = structureFeatures(analyzePlan(JSON_PLAN, catalog)).map(([name, value]) => `${name}:${value}`);
    expect(names).toEqual(
      expect.arrayContaining(['valid:1', 'dom=high:1', 'nodes=2:1', 'edges=1:1', 'depth=2:1', 'max_fan_in=1:1', 'block:sc:1', 'block:cot:1', 'param:sc.samples=3:1', 'param:sc.temperature=0.5:1', 'answer_block:cot:1', 'referencing_inputs=1:1']),
    );
  });

  it('what the parser ignored or repaired stays visible: warn: features and the warnings line', () => {
    // No edge A -> B is written (the parser adds it) and <agent_model> is not a param.
    const repaired = '<agent><agent_id>A</agent_id><agent_name>CoTAgent</agent_name><agent_model>gpt-4o</agent_model></agent><agent><agent_id>B</agent_id><agent_name>CoTAgent</agent_name><agent_input>Check ${A}</agent_input></agent><answer_node>B</answer_node>';
    const analysis = analyzePlan(repaired, catalog);
    expect(analysis.warningCodes).toEqual(['ignored_key', 'ref_edge_mismatch']);
    expect(analysis.text.split('\n').at(-1)).toBe('<!-- warnings: ignored_key, ref_edge_mismatch -->');
    const names = structureFeatures(analysis).map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(['warn:ignored_key', 'warn:ref_edge_mismatch']));
    // The same graph written cleanly scores differently only through those features.
    const clean = analyzePlan('<agent><agent_id>A</agent_id><agent_name>CoTAgent</agent_name></agent><agent><agent_id>B</agent_id><agent_name>CoTAgent</agent_name><agent_input>Check ${A}</agent_input></agent><edge><from>A</from><to>B</to></edge>', catalog);
    expect(clean.warningCodes).toEqual([]);
    expect(clean.plan).toEqual(analysis.plan);
  });

  it('a prefix keeps the first k nodes in topological order, rendered canonically', () => {
    const full = analyzePlan(JSON_PLAN, catalog);
    const first = planPrefix(full, 1, catalog);
    expect(first.plan?.nodes.map((node) => node.id)).toEqual(['A']);
    expect(first.plan?.edges).toEqual([]);
    expect(first.text).toContain('<agent_name>sc</agent_name>');
    expect(first.text).not.toContain('cot');
    expect(planPrefix(full, 5, catalog)).toBe(full);
    expect(planPrefix(full, 0, catalog).plan?.nodes).toEqual([]);
  });
});
