import { describe, expect, it } from 'vitest';
import { Rng } from '../core/index.js';
import { defaultBlockCatalog } from '../plan/index.js';
import { compareExplanations, explainScore } from './explain-score.js';
import { FeatureAccumulator } from './features/feature-accumulator.js';
import { parseEncoderSpec } from './features/encoder-spec.js';
import { FeaturePipeline } from './features/feature-pipeline.js';
import { murmur3String } from './features/murmur3.js';
import { analyzePlan } from './features/plan-analysis.js';
import { hashWords, splitWords } from './features/tokenize.js';
import { createHead } from './heads/create-head.js';
import type { HeadConfigInput } from './heads/head-config.js';
import { syntheticPlan, syntheticTask } from './synthetic-pairs.js';
import { TrainedRewardModel } from './trained-reward-model.js';

const catalog = defaultBlockCatalog();
const BLOCKS = ['cot', 'sc', 'reflexion', 'debate', 'search'];
/** Every hashed encoder, in a small space so that hash collisions between features happen. */
const EVERY_ENCODER = 'words:1-3,chars:2-4,structure,task-stats,cross,names,length,plan-shape,shape,route,popularity';

const TASK = 'Who is the mentor of the founder of Umbexsys Industries? Note: Café Ünter claims 12 + 30 = 42.';
const PLANS = [
  JSON.stringify({ dom: 'high', nodes: [{ id: 'A', agent: 'search', input: 'founder of Umbexsys' }, { id: 'B', agent: 'sc', input: 'mentor of ${A}', params: { samples: 5 } }], edges: [{ from: 'A', to: 'B' }], answer: 'B' }),
  JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'cot', input: '' }], answer: 'A' }),
  'not a plan at all </script><b>',
];

/** A model whose every parameter is drawn at random (a trained model's parameters are just numbers too). */
function randomModel(spec: string, head: HeadConfigInput, seed: number, hashBits = 10): TrainedRewardModel {
  const pipeline = new FeaturePipeline(parseEncoderSpec({ hashBits, features: parseEncoderSpec(spec).features }));
  const model = new TrainedRewardModel(pipeline, createHead(head, pipeline.dimension, seed));
  const rng = new Rng(seed);
  for (const tensor of model.head.tensors) for (let index = 0; index < tensor.values.length; index++) tensor.values[index] = rng.normal() * 0.5;
  return model;
}

const total = (explanation: Awaited<ReturnType<typeof explainScore>>) => explanation.baseline + explanation.contributions.reduce((sum, entry) => sum + entry.contribution, 0);

describe('explainScore', () => {
  const cases: [string, HeadConfigInput, 'exact' | 'integrated-gradients'][] = [
    ['linear head', { kind: 'linear' }, 'exact'],
    ['MLP head (ReLU)', { kind: 'mlp', hidden: 8, activation: 'relu', firstLayerPrecision: 'float64' }, 'integrated-gradients'],
    ['MLP head (tanh, float32 first layer)', { kind: 'mlp', hidden: 8, activation: 'tanh' }, 'integrated-gradients'],
  ];
  for (const [label, head, method] of cases) {
    it(`${label}: the contributions and the baseline sum to the score, for every encoder and colliding hashes`, async () => {
      for (const [spec, hashBits] of [[EVERY_ENCODER, 8], ['shape', 14], ['words:1-2,structure', 12]] as const) {
        const model = randomModel(spec, head, 5, hashBits);
        const rng = new Rng(9);
        const tasks = [TASK, ...Array.from({ length: 4 }, (_, index) => syntheticTask(rng, index, 30).question)];
        for (const task of tasks) {
          const plans = [...PLANS, JSON.stringify(syntheticPlan(rng, BLOCKS, 12))];
          for (const plan of plans) {
            const explanation = await explainScore(model, task, plan);
            const [score] = await model.score(task, [plan]);
            expect(explanation.method).toBe(method);
            expect(explanation.score).toBe(score);
            expect(Math.abs(total(explanation) - score!), `${spec} ${label}`).toBeLessThan(1e-9 * Math.max(1, Math.abs(score!)));
            expect(explanation.contributions.length).toBeGreaterThan(0);
            // Sorted by magnitude, encoder sums add up too.
            const magnitudes = explanation.contributions.map((entry) => Math.abs(entry.contribution));
            expect(magnitudes).toEqual([...magnitudes].sort((a, b) => b - a));
            const byEncoder = explanation.byEncoder.reduce((sum, entry) => sum + entry.contribution, 0);
            expect(Math.abs(explanation.baseline + byEncoder - score!)).toBeLessThan(1e-9 * Math.max(1, Math.abs(score!)));
          }
        }
      }
    });
  }

  it('the linear head is exact: a contribution is the weight of its coordinate times its value, the baseline the bias', async () => {
    const model = randomModel('shape', { kind: 'linear' }, 2, 18);
    const explanation = await explainScore(model, TASK, PLANS[0]!);
    const [weights, bias] = model.head.tensors;
    expect(explanation.baseline).toBe(bias!.values[0]);
    const named = model.pipeline.explainFeatures(model.pipeline.analyzeTask(TASK), model.analyze(PLANS[0]!));
    const usesSearch = named.find((feature) => feature.name === 'plan uses=search')!;
    expect(usesSearch.encoder).toBe('shape');
    const entry = explanation.contributions.find((item) => item.feature === 'plan uses=search')!;
    // 18 hash bits: no other shape feature of this example shares its coordinate (checked below).
    expect(named.filter((feature) => feature.index === usesSearch.index)).toHaveLength(1);
    expect(entry.contribution).toBeCloseTo(weights!.values[usesSearch.index]! * Math.fround(usesSearch.value), 12);
  });

  it('names what the encoders see: plan shape, task shape crossed with it, words and characters', async () => {
    const model = randomModel('shape,words:1-2@plan,chars:3-3@task,task-stats,cross,structure', { kind: 'linear' }, 3, 16);
    const features = (await explainScore(model, TASK, PLANS[0]!)).contributions.map((entry) => `${entry.encoder} | ${entry.feature}`);
    expect(features).toEqual(
      expect.arrayContaining([
        'shape | plan uses=search',
        'shape | task question=who x plan final=sc',
        'words:1-2@plan | plan words "founder of"',
        'chars:3-3@task | task chars "caf"',
        'task-stats | task question=who',
        'cross | task word "umbexsys" x plan block=search',
        'structure | plan block:sc',
      ]),
    );
  });

  it('compares two plans: the differences sum to the score difference, and task-only features cancel', async () => {
    // 18 hash bits: no task feature shares a coordinate with a plan feature, so the linear head's task features cancel exactly.
    for (const head of [{ kind: 'linear' }, { kind: 'mlp', hidden: 6, firstLayerPrecision: 'float64' }] as const) {
      const model = randomModel(EVERY_ENCODER, head, 4, 18);
      const a = await explainScore(model, TASK, PLANS[0]!);
      const b = await explainScore(model, TASK, PLANS[1]!);
      const comparison = compareExplanations(a, b);
      expect(comparison.scoreDifference).toBe(a.score - b.score);
      const sum = comparison.differences.reduce((total, entry) => total + entry.difference, 0);
      expect(Math.abs(sum - comparison.scoreDifference)).toBeLessThan(1e-9 * Math.max(1, Math.abs(comparison.scoreDifference)));
      if (head.kind === 'linear') expect(comparison.differences.some((entry) => entry.encoder === 'task-stats')).toBe(false);
    }
  });

  it('an invalid plan is explained in its diagnostic form', async () => {
    const explanation = await explainScore(randomModel('shape', { kind: 'linear' }, 1, 18), TASK, PLANS[2]!);
    expect(explanation.planText).toMatch(/^INVALID PLAN/);
    expect(explanation.contributions.map((entry) => entry.feature)).toContain('plan plan=invalid');
  });
});

describe('named features', () => {
  it('land on exactly the coordinates and values encode() writes, for every encoder', () => {
    const pipeline = new FeaturePipeline(parseEncoderSpec({ hashBits: 9, features: parseEncoderSpec(EVERY_ENCODER).features }));
    const rng = new Rng(1);
    for (let round = 0; round < 20; round++) {
      const task = round === 0 ? TASK : syntheticTask(rng, round, 40).question;
      const plan = analyzePlan(round < PLANS.length ? PLANS[round]! : JSON.stringify(syntheticPlan(rng, BLOCKS, 20)), catalog);
      const taskAnalysis = pipeline.analyzeTask(task);
      const count = pipeline.encode(taskAnalysis, plan);
      const encoded = new Map<number, number>();
      for (let position = 0; position < count; position++) encoded.set(pipeline.indices[position]!, pipeline.values[position]!);
      const accumulator = new FeatureAccumulator(pipeline.dimension);
      for (const feature of pipeline.explainFeatures(taskAnalysis, plan)) accumulator.add(feature.index, feature.value);
      const indices = new Uint32Array(accumulator.size);
      const values = new Float32Array(accumulator.size);
      const namedCount = accumulator.finish(indices, values, 0);
      const named = new Map<number, number>();
      for (let position = 0; position < namedCount; position++) named.set(indices[position]!, values[position]!);
      expect([...named.keys()].filter((index) => Math.abs(named.get(index)!) > 1e-6)).toEqual([...encoded.keys()].filter((index) => Math.abs(encoded.get(index)!) > 1e-6));
      for (const [index, value] of encoded) expect(named.get(index) ?? 0).toBeCloseTo(value, 5);
    }
  });

  it('splitWords gives the words hashWords hashes', () => {
    const text = 'Ünter café, 12 apples & X_Y z.  Ende';
    const words = splitWords(text);
    expect(words).toEqual(['ünter', 'café', '12', 'apples', 'x_y', 'z', 'ende'].map((word) => word.replace('ü', 'Ü')));
    const hashes = new Uint32Array(text.length);
    expect(Array.from(hashes.subarray(0, hashWords(text, hashes)))).toEqual(words.map((word) => murmur3String(word, 0)));
  });
});
