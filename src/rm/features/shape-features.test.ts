import { describe, expect, it } from 'vitest';
import { defaultBlockCatalog } from '../../plan/index.js';
import { parseEncoderSpec, planOnlySpec } from './encoder-spec.js';
import { FeaturePipeline } from './feature-pipeline.js';
import { analyzePlan } from './plan-analysis.js';
import { planShape } from './plan-shape.js';
import { readQuantities } from './quantity-graph.js';
import { taskNames } from './task-encoders.js';
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
      'quantities=0',
    ]);
    const arithmetic = taskShape('Ann has 3 apples. Bob has 2 more than Ann. A note claims Bob has 9. How many apples does Bob have?');
    expect(arithmetic).toContain('numbers=3-4');
    expect(arithmetic).toContain('relation_words=1');
    expect(arithmetic).toContain('hedges=2');
    expect(arithmetic).toContain('question=how_many');
    expect([0, 2, 3, 5, 9, 17].map(countBucket)).toEqual(['0', '2', '3-4', '5-8', '9-16', '17+']);
  });

  it('reads the quantity graph of a word problem: depth, independent parts, distractors and a doubted statement on the path (issue 21)', () => {
    const given = "There are 3 red pens in Ann's box. Bo's bag holds 4 blue cups. There are 9 gray hats in Cy's tin.";
    const chain = `${given} The number of green pens in Di's jar is 2 times the number of red pens in Ann's box. The number of black pens in Ed's tray equals the number of green pens in Di's jar minus the number of blue cups in Bo's bag. How many black pens are in Ed's tray?`;
    expect(readQuantities(chain)).toEqual({ quantities: 5, asked: 1, depth: 2, parts: 1, needed: 4, unused: 1, doubted: 0, doubtedOnPath: 0 });
    // The asked quantity adds two parts that share nothing: a decomposition keeps them apart.
    const split = `${given} The number of green pens in Di's jar is 2 times the number of red pens in Ann's box. The number of white mugs in Fay's crate is 5 more than the number of gray hats in Cy's tin. The number of black pens in Ed's tray equals the sum of the number of green pens in Di's jar and the number of white mugs in Fay's crate. How many black pens are in Ed's tray?`;
    expect(readQuantities(split)).toMatchObject({ depth: 2, parts: 2, needed: 5, unused: 1 });
    // A note on the path is a trap; one about an unused quantity is only a distractor.
    const onPath = `${chain.replace(/ How many.*$/, '')} A note claims that the number of green pens in Di's jar is 40, but the note was written before the last delivery. How many black pens are in Ed's tray?`;
    expect(readQuantities(onPath)).toMatchObject({ doubted: 1, doubtedOnPath: 1 });
    const offPath = `${chain.replace(/ How many.*$/, '')} An old label says that the number of gray hats in Cy's tin is 2, but the label is out of date. How many black pens are in Ed's tray?`;
    expect(readQuantities(offPath)).toMatchObject({ doubted: 1, doubtedOnPath: 0 });
    expect(taskShape(onPath)).toEqual(expect.arrayContaining(['asked_depth=2', 'asked_parts=1', 'doubted_on_path=1', 'quantity_structure=doubted']));
    expect(taskShape(split)).toEqual(expect.arrayContaining(['asked_parts=2', 'quantity_structure=split']));
    expect(taskShape(offPath)).toEqual(expect.arrayContaining(['doubted_off_path=1', 'quantity_structure=chain', 'hedges=1']));
    expect(readQuantities('Who is the mentor of the mentor of Andre Garwell?').quantities).toBe(0);
    // A chain of 50,000 statements does not exhaust the stack: the reader keeps the first 2,000.
    const name = (index: number) => `A${[...index.toString(26)].map((digit) => String.fromCharCode(97 + parseInt(digit, 26))).join('')}`;
    const long = Array.from({ length: 50_000 }, (_, index) => `The number of red pens in ${name(index + 1)}'s box is 1 more than the number of red pens in ${name(index)}'s box.`).join(' ');
    const reading = readQuantities(`${long} How many red pens are in ${name(1999)}'s box?`);
    expect(reading.depth).toBe(1999);
    expect(reading.unused).toBe(1);
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

  it('crosses each name the task mentions with the plan kinds in `names`; other names, other features (issue 21)', () => {
    expect(taskNames('Who is the mayor of the birthplace of Quentin Farnner? Which company employs the mayor of Westmoor, Ann said.')).toEqual(['Quentin Farnner', 'Westmoor', 'Ann']);
    const search = plan({ dom: 'low', nodes: [{ id: 'A', agent: 'search', input: '', params: {} }], answer: 'A' });
    const features = (question: string) => {
      const pipeline = new FeaturePipeline(parseEncoderSpec('names,bits:16'));
      const count = pipeline.encode(pipeline.analyzeTask(question), search);
      return new Set(pipeline.indices.subarray(0, count));
    };
    const famous = features('Who is the mayor of the birthplace of Quentin Farnner?');
    expect(famous.size).toBe(2); // the name x block=search, the name x dom=low
    expect(features('In which city was the founder of Quentin Farnner born?')).toEqual(famous);
    expect([...features('Who is the mayor of the birthplace of Anita Mergate?')].some((index) => famous.has(index))).toBe(false);
    expect(features('How many apples?').size).toBe(0);
    expect(planOnlySpec(parseEncoderSpec('shape,names')).features).toEqual([{ kind: 'plan-shape' }]);
  });
});

describe('task shape versions', () => {
  const text = 'Ann has 4 apples. Bob has 3 times as many. A rumour says Bob has 20. How many apples does Bob have?';

  it('version 1 (model files of format 1 and 2) reads no quantity graph and the first words of doubt only', () => {
    const current = taskShape(text);
    const first = taskShape(text, 1);
    expect(current.some((name) => name.startsWith('quantities='))).toBe(true);
    expect(first.some((name) => name.startsWith('quantit') || name.startsWith('asked_'))).toBe(false);
    expect(first).toContain('hedges=0');
    expect(current).toContain('hedges=1');
  });

  it('a pipeline whose spec says taskShapeVersion 1 encodes with it, so an old model scores as it did', () => {
    const catalog = defaultBlockCatalog();
    const plan = analyzePlan(JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'cot', input: '', params: {} }], edges: [], answer: 'A' }), catalog);
    const spec = parseEncoderSpec('shape');
    const encoded = (pipeline: FeaturePipeline) => {
      const task = pipeline.analyzeTask(text);
      return { names: task.shapeNames, count: pipeline.encode(task, plan) };
    };
    expect(encoded(new FeaturePipeline({ ...spec, taskShapeVersion: 1 })).names).toEqual(taskShape(text, 1));
    expect(encoded(new FeaturePipeline(spec)).names).toEqual(taskShape(text));
  });
});
