import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Pair } from '../../core/index.js';
import { defaultBlockCatalog } from '../../plan/index.js';
import { loadRewardModel, saveRewardModel } from '../model-file.js';
import { fitEncoderSpec, trainRewardModel } from '../train-reward-model.js';
import { MAX_POPULARITY_NAMES, parseEncoderSpec, planOnlySpec } from './encoder-spec.js';
import { FeaturePipeline } from './feature-pipeline.js';
import { analyzePlan } from './plan-analysis.js';
import { taskNames } from './task-encoders.js';
import { bestKnownName, fitPopularity, governingRelation, popularityBucket, relationMeans, relativePopularityBucket } from './routing-encoders.js';

const catalog = defaultBlockCatalog();
const planText = (agent: string) => JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent, input: '', params: {} }], answer: 'A' });
const plan = (agent: string) => analyzePlan(planText(agent), catalog);

/** The coordinates (and values) a spec writes for one task and plan. */
function encoded(spec: string, question: string, agent: string): Map<number, number> {
  const pipeline = new FeaturePipeline(parseEncoderSpec(spec));
  const count = pipeline.encode(pipeline.analyzeTask(question), plan(agent));
  return new Map(Array.from(pipeline.indices.subarray(0, count), (index, at) => [index, pipeline.values[at]!]));
}

const given = "There are 3 red pens in Ann's box. Bo's bag holds 4 blue cups. There are 9 gray hats in Cy's tin.";
const chain = `${given} The number of green pens in Di's jar is 2 times the number of red pens in Ann's box. How many green pens are in Di's jar?`;
const split = `${given} The number of green pens in Di's jar is 2 times the number of red pens in Ann's box. The number of white mugs in Fay's crate is 5 more than the number of gray hats in Cy's tin. The number of black pens in Ed's tray equals the sum of the number of green pens in Di's jar and the number of white mugs in Fay's crate. How many black pens are in Ed's tray?`;

describe('route encoder', () => {
  it("crosses the word problem's structure with the plan shape at a plan feature's weight; nothing for text without quantities", () => {
    const chainFeatures = encoded('route,bits:16', chain, 'sc');
    const splitFeatures = encoded('route,bits:16', split, 'sc');
    expect(chainFeatures.size).toBeGreaterThan(0);
    expect([...splitFeatures.keys()].some((index) => !chainFeatures.has(index))).toBe(true);
    // Full weight: each cross is 1/sqrt(plan names), as large as a plan-shape feature, where `shape` divides it by sqrt(task facts) too.
    const planWeight = Math.max(...encoded('plan-shape,bits:16', split, 'sc').values());
    expect(Math.max(...[...splitFeatures.values()].map(Math.abs))).toBeCloseTo(planWeight, 5);
    expect(encoded('route,bits:16', 'Who is the mentor of the mentor of Andre Garwell?', 'search').size).toBe(0);
    expect(planOnlySpec(parseEncoderSpec('shape,route,popularity')).features).toEqual([{ kind: 'plan-shape' }]);
  });

  it('explains every feature it writes, by name', () => {
    const pipeline = new FeaturePipeline(parseEncoderSpec('route,bits:16'));
    const task = pipeline.analyzeTask(split);
    const names = pipeline.explainFeatures(task, plan('sc')).map((feature) => feature.name);
    expect(names).toContain('task quantity_structure=split x plan single=sc');
    expect(names.length).toBe(pipeline.encode(task, plan('sc')));
  });
});

describe('popularity encoder', () => {
  it('fits how many distinct task texts mention each name, drops names seen once and names too long to be one, and stays bounded', () => {
    const table = fitPopularity(['Who founded Westmoor?', 'Who founded Westmoor?', 'Who is the mayor of Westmoor?', 'Where was the mayor of Westmoor born, said Ann?', 'Who mentored Ann?', 'Who is the mayor of Old Clearholm?']);
    expect(table).toEqual({ tasks: 5, names: ['Westmoor', 'Ann'], counts: [3, 2] });
    const long = `Who is the mayor of ${Array.from({ length: 30 }, () => 'Abcdef').join(' ')}?`;
    expect(fitPopularity([long, `${long} `]).names).toEqual([]);
    const letters = (index: number) => [...index.toString(26)].map((digit) => String.fromCharCode(97 + parseInt(digit, 26))).join('');
    const many = Array.from({ length: MAX_POPULARITY_NAMES + 5 }, (_, index) => `Who is the mayor of Town${letters(index)}?`);
    expect(fitPopularity([...many, ...many.map((text) => `${text} `)]).names.length).toBe(MAX_POPULARITY_NAMES);
    expect(() => parseEncoderSpec({ features: [{ kind: 'popularity', table: { tasks: 1, names: ['A'], counts: [] } }] })).toThrow(/one count per name/);
  });

  it('buckets the best-known name of a task: unseen and once-seen names read alike', () => {
    const counts = new Map([
      ['Westmoor', 6],
      ['Ann', 2],
      ['Bo', 1],
    ]);
    expect(popularityBucket(['Ann', 'Westmoor'], counts)).toBe('popularity=5-8');
    expect(popularityBucket(['Ann'], counts)).toBe('popularity=2');
    expect(popularityBucket(['Bo'], counts)).toBe(popularityBucket(['Zed'], counts));
    expect(popularityBucket([], counts)).toBeUndefined();
  });

  it('reads the relation that governs a name: one or two lowercase words between "the" and "of" right before it', () => {
    expect(governingRelation('Who is the mayor of Mount Denton?', 'Mount Denton')).toBe('mayor');
    expect(governingRelation('In which city was the mayor of the birthplace of Anita Mergate born?', 'Anita Mergate')).toBe('birthplace');
    expect(governingRelation('Which company employs the mayor of the headquarters city of Fyrartrix Works?', 'Fyrartrix Works')).toBe('headquarters city');
    expect(governingRelation('Who is the oldest living mayor of Westmoor?', 'Westmoor')).toBeUndefined();
    expect(governingRelation('Who founded Westmoor?', 'Westmoor')).toBeUndefined();
    expect(governingRelation('Who is a friend of Ann?', 'Ann')).toBeUndefined();
    expect(governingRelation('Who is the Mayor of Ann?', 'Ann')).toBeUndefined();
    expect(governingRelation('Who is the mayor of Ann?', 'Bo')).toBeUndefined();
    // It reads a bounded window before the name, so a long text costs no more than its length.
    expect(governingRelation(`${'the of '.repeat(20_000)}the mayor of Ann`, 'Ann')).toBe('mayor');
  });

  it("rates a name's popularity against the mean of the names its relation governs", () => {
    const counts = new Map([
      ['Westmoor', 4],
      ['Eastmoor', 4],
      ['Ann', 4],
      ['Bo', 1],
      ['Cy', 1],
    ]);
    expect(bestKnownName(['Bo', 'Ann'], counts)).toBe('Ann');
    expect(bestKnownName([], counts)).toBeUndefined();
    const texts = ['Who is the mayor of Westmoor?', 'Who is the mayor of Eastmoor?', 'Who is the mayor of Eastmoor?', 'Where was the mentor of Ann born?', 'Where was the mentor of Bo born?', 'Where was the mentor of Cy born?', 'Who founded Westmoor?'];
    // Each distinct text once; the most frequent relations first, at most `limit`.
    const means = relationMeans(texts, counts, 8);
    expect([...means]).toEqual([
      ['mentor', 2],
      ['mayor', 4],
    ]);
    expect([...relationMeans(texts, counts, 1)]).toEqual([['mentor', 2]]);
    // A city named in four texts is an ordinary city; a person named in four is twice as popular as people are.
    expect(relativePopularityBucket('Who is the mayor of Westmoor?', taskNames('Who is the mayor of Westmoor?'), counts, means)).toBe('relative_popularity=1-2');
    expect(relativePopularityBucket('Where was the mentor of Ann born?', taskNames('Where was the mentor of Ann born?'), counts, means)).toBe('relative_popularity=2-4');
    expect(relativePopularityBucket('Where was the mentor of Bo born?', taskNames('Where was the mentor of Bo born?'), counts, means)).toBe('relative_popularity=0.5-1');
    expect(relativePopularityBucket('Who founded Westmoor?', taskNames('Who founded Westmoor?'), counts, means)).toBeUndefined();
    expect(relativePopularityBucket('Who is the founder of Westmoor?', taskNames('Who is the founder of Westmoor?'), counts, means)).toBeUndefined();
  });

  it('learns from train-split texts only when training fits it, and routes a new task about a popular name away from search (saved and loaded intact)', async () => {
    // Questions about the five popular towns are answered from memory (cot wins); about a rare town, search wins.
    const popular = ['Westmoor', 'Halander', 'Quillby', 'Marrow', 'Denton'];
    const pairs: Pair[] = [];
    const add = (question: string, winner: string, loser: string, split: 'train' | 'validation') =>
      pairs.push({ id: `p${pairs.length}`, datasetId: 'popularity', taskId: `t${pairs.length}`, question, winner: { planText: planText(winner) }, loser: { planText: planText(loser) }, source: 'outcome', weight: 1, evidence: {}, split });
    for (let index = 0; index < 60; index++) {
      add(`Who is the mayor of ${popular[index % popular.length]} in year ${index}?`, 'cot', 'search', 'train');
      add(`Who is the mayor of Rareton${String.fromCharCode(97 + (index % 26), 97 + Math.floor(index / 26))} in year ${index}?`, 'search', 'cot', 'train');
    }
    add('Who is the mayor of Valtown in year 1?', 'cot', 'search', 'validation');
    add('Who is the mayor of Valtown in year 2?', 'cot', 'search', 'validation');
    const fitted = fitEncoderSpec(parseEncoderSpec('plan-shape,popularity,bits:12'), pairs).features[1];
    expect(fitted).toMatchObject({ kind: 'popularity', table: { tasks: 120 } });
    expect(fitted?.kind === 'popularity' && fitted.table?.names.includes('Valtown')).toBe(false);

    const { model } = await trainRewardModel(pairs, { encoder: 'plan-shape,popularity,bits:12', maxEpochs: 30, tune: false, learningRate: 0.05, seed: 1 });
    const [cotPopular, searchPopular] = await model.score('Which company employs the founder of Halander?', [planText('cot'), planText('search')]);
    const [cotRare, searchRare] = await model.score('Which company employs the founder of Nevermet?', [planText('cot'), planText('search')]);
    expect(cotPopular!).toBeGreaterThan(searchPopular!);
    expect(searchRare!).toBeGreaterThan(cotRare!);

    const directory = mkdtempSync(join(tmpdir(), 'orchrm-popularity-'));
    try {
      await saveRewardModel(model, join(directory, 'rm.safetensors'));
      const loaded = await loadRewardModel(join(directory, 'rm.safetensors'));
      expect(loaded.pipeline.spec).toEqual(model.pipeline.spec);
      expect(await loaded.score('Which company employs the founder of Halander?', [planText('cot'), planText('search')])).toEqual([cotPopular, searchPopular]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
