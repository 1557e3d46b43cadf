import { describe, expect, it } from 'vitest';
import { defaultBlockCatalog } from '../../plan/index.js';
import { parseEncoderSpec, planOnlySpec } from './encoder-spec.js';
import { FeaturePipeline } from './feature-pipeline.js';
import { analyzePlan } from './plan-analysis.js';
import { planShape } from './plan-shape.js';
import { countBucket, taskShape } from './task-shape.js';

const catalog = defaultBlockCatalog();
const plan = (value: unknown) => analyzePlan(JSON.stringify(value), catalog);

describe('task shape', () => {
  it('names quantities, relations, hops, names and the question form from the text alone', () => {
    expect(taskShape('Who is the mentor of the mentor of Andre Garwell?')).toEqual([
      'task=any',
      'words=1',
      'sentences=1',
      'numbers=0',
      'relation_words=0',
      'entity_words=2',
      'relation_chain=2',
      'possessives=0',
      'names=2',
      'hedges=0',
      'math_notation=0',
      'question=who',
    ]);
    const arithmetic = taskShape('Ann has 3 apples. Bob has 2 more than Ann. A note claims Bob has 9. How many apples does Bob have?');
    expect(arithmetic).toContain('numbers=3-4');
    expect(arithmetic).toContain('relation_words=1');
    expect(arithmetic).toContain('hedges=2');
    expect(arithmetic).toContain('question=how_many');
    expect([0, 2, 3, 5, 9, 17].map(countBucket)).toEqual(['0', '2', '3-4', '5-8', '9-16', '17+']);
  });

  it('reads the question form from the last question sentence', () => {
    const question = (text: string) => taskShape(text).find((name) => name.startsWith('question='));
    expect(question('Who won? Name the city. How many people live there?')).toBe('question=how_many');
    expect(question('Which one? It is late! Why now? Then stop.')).toBe('question=why');
    expect(question('?')).toBe('question=other');
    expect(question('Where is it')).toBe('question=where');
    expect(question('Compute 2+2. what is it?\n')).toBe('question=what');
  });
});

describe('plan shape', () => {
  it('reads decomposition, inner and answer blocks and effort, never a word of the plan', () => {
    const single = plan({ dom: 'low', nodes: [{ id: 'A', agent: 'reflexion', input: 'Whatever words', params: { maxRounds: 3, temperature: 0.3 } }], answer: 'A' });
    expect(planShape(single)).toEqual(['plan=valid', 'nodes=1', 'depth=1', 'single=reflexion', 'uses=reflexion', 'reflexion.rounds=3-4', 'temperature=low']);
    const steps = plan({
      dom: 'high',
      nodes: [
        { id: 'A', agent: 'search', input: 'first hop', params: {} },
        { id: 'B', agent: 'search', input: 'second hop of ${A}', params: {} },
        { id: 'C', agent: 'sc', input: 'answer from ${B}', params: { samples: 5, temperature: 0.7 } },
      ],
      edges: [{ from: 'A', to: 'B' }, { from: 'B', to: 'C' }],
      answer: 'C',
    });
    expect(planShape(steps)).toEqual(expect.arrayContaining(['decomposed', 'final=sc', 'inner=search', 'inner_only=search', 'reading_nodes=2', 'depth=3-4', 'sc.samples=5-8', 'temperature=mid']));
    expect(planShape(analyzePlan('not a plan', catalog))).toEqual(['plan=invalid']);
    // The same shape whatever the sub-task wording.
    const reworded = plan({ dom: 'low', nodes: [{ id: 'A', agent: 'reflexion', input: 'Other text entirely', params: { maxRounds: 3, temperature: 0.3 } }], answer: 'A' });
    expect(planShape(reworded)).toEqual(planShape(single));
  });

  it('crosses task shape with plan shape in `shape`, and the plan-only baseline keeps only plan-shape', () => {
    const pipeline = new FeaturePipeline(parseEncoderSpec('shape,bits:12'));
    const question = 'Who is the mentor of the mentor of Ann Lee?';
    const a = plan({ dom: 'low', nodes: [{ id: 'A', agent: 'search', input: '', params: {} }], answer: 'A' });
    const withTask = pipeline.encode(pipeline.analyzeTask(question), a);
    const withOther = new FeaturePipeline(parseEncoderSpec('shape,bits:12'));
    const otherCount = withOther.encode(withOther.analyzeTask('Ann has 3 apples. How many apples?'), a);
    expect(withTask).toBeGreaterThan(10);
    expect([...pipeline.indices.subarray(0, withTask)]).not.toEqual([...withOther.indices.subarray(0, otherCount)]);
    expect(planOnlySpec(parseEncoderSpec('shape')).features).toEqual([{ kind: 'plan-shape' }]);
  });
});
