import { describe, expect, it } from 'vitest';
import type { Pair } from '../core/pair.js';
import { headDifference } from './bootstrap-heads.js';
import { trainRewardModel } from './train-reward-model.js';

const plan = (agent: string, params: Record<string, unknown> = {}) => JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent, input: '', params }], edges: [], answer: 'A' });
const SC = plan('sc', { samples: 5 });
const COT = plan('cot');
const RARE = plan('reflexion', { maxRounds: 5 });

/** 60 tasks where sc beats cot, 3 where a rare plan (reflexion, 5 rounds) beats cot once; every 5th task in validation. */
function pairs(): Pair[] {
  const list: Pair[] = [];
  const add = (task: number, winner: string, loser: string) =>
    list.push({ id: `p${list.length}`, datasetId: 'd', taskId: `t${task}`, question: `What is ${task} times ${task + 2}?`, winner: { planText: winner }, loser: { planText: loser }, source: 'outcome', weight: 1, evidence: {}, split: task % 5 === 4 ? 'validation' : 'train' });
  for (let task = 0; task < 60; task++) add(task, SC, COT);
  for (let task = 60; task < 63; task++) add(task, RARE, COT);
  return list;
}

const spread = (values: number[]) => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1));
};

describe('bootstrap heads', () => {
  it('disagree more about a plan seen on few tasks than about one seen on many, and are deterministic in the seed', async () => {
    const config = { encoder: 'shape,bits:12', maxEpochs: 8, tune: false as const, learningRate: 0.05, seed: 3, ensembleSize: 8 };
    const { model } = await trainRewardModel(pairs(), config);
    expect(model.ensembleSize).toBe(8);
    const question = 'What is 7 times 9?';
    const members = await model.scoreMembers(question, [SC, COT, RARE]);
    const rareVsSc = members[2]!.map((score, head) => score - members[0]![head]!);
    const cotVsSc = members[1]!.map((score, head) => score - members[0]![head]!);
    expect(spread(rareVsSc)).toBeGreaterThan(2 * spread(cotVsSc));
    // The heads are not copies of the model's head, and the same seed gives the same heads.
    const [main] = [await model.score(question, [SC])];
    expect(members[0]!.some((score) => score !== main![0])).toBe(true);
    const again = (await trainRewardModel(pairs(), config)).model;
    expect(await again.scoreMembers(question, [SC, COT, RARE])).toEqual(members);
    expect(model.provenance.metrics?.ensemble).toHaveLength(8);
    const none = (await trainRewardModel(pairs(), { ...config, ensembleSize: 0 })).model;
    expect(none.ensembleSize).toBe(0);
    expect(await none.score(question, [SC, COT])).toEqual(await model.score(question, [SC, COT]));
  });

  it('measures how far one plan sits above another across the heads: mean and sample sd of the differences', () => {
    expect(headDifference([3, 5, 7], [1, 1, 1])).toEqual({ mean: 4, spread: 2 });
    // One head gives a difference but no spread; none gives neither.
    expect(headDifference([2], [0.5])).toEqual({ mean: 1.5, spread: 0 });
    expect(headDifference([], [])).toEqual({ mean: 0, spread: 0 });
  });
});
