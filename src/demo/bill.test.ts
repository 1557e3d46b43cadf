import { describe, expect, it } from 'vitest';
import { BillSchema } from '../report/results-schema.js';
import { demoBill } from './bill.js';

const split = (orchestrator: number, execution: number, verification: number) => ({ orchestrator, execution, verification, total: orchestrator + execution + verification });

describe('demoBill', () => {
  const counts = {
    strongCheckpoint: split(8, 86, 0),
    collection: split(30, 300, 0),
    rmGrpo: split(3, 0, 1),
    executionGrpo: split(4, 45, 0),
    gain: { rm: 0.2, execution: 0.25 },
  };

  it('adds every stage of a route from the counts it was given, and lists the checkpoint apart with both totals', () => {
    const bill = BillSchema.parse(demoBill(counts));
    expect(bill.rewardModel.stages.map((stage) => [stage.stage, stage.paid, stage.tokens.total])).toEqual([
      ['strong checkpoint', 'once', 94],
      ['collection', 'once', 330],
      ['grpo', 'per-run', 4],
    ]);
    expect(bill.rewardModel.total).toEqual(split(41, 386, 1));
    expect(bill.rewardModel.totalWithoutApart).toEqual(split(33, 300, 1));
    expect(bill.execution.total).toEqual(counts.executionGrpo);
    expect(bill.execution.totalWithoutApart).toEqual(counts.executionGrpo);
    expect(bill.rewardModel.stages[0]?.apart).toMatch(/checkpoints/);
    expect(bill.savingPerRun).toBe(45);
    expect(bill.gainShare).toBeCloseTo(0.8, 12);
    expect(bill.leavesOut.length).toBeGreaterThan(0);
  });

  it('breaks even after the fewest runs whose savings repay the paid-once stages', () => {
    const bill = demoBill(counts);
    // 424 tokens paid once, 45 saved per run: 9 runs save 405, 10 save 450.
    expect(bill.breakEvenRuns).toBe(10);
    // 330 without the checkpoint: 8 runs save 360.
    expect(bill.breakEvenRunsWithoutApart).toBe(8);
    expect(demoBill({ ...counts, strongCheckpoint: split(0, 0, 0), collection: split(0, 45, 0) }).breakEvenRuns).toBe(1);
  });

  it('charges the share of the collection the GRPO reward model read, and names the rest in what it leaves out', () => {
    const bill = demoBill({ ...counts, collection: split(10, 80, 0), collectionShare: { share: 0.25, tasks: 135, wholeCollection: split(30_000_000, 300_000_000, 0) } });
    expect(bill.rewardModel.stages[1]).toMatchObject({ stage: 'collection', tokens: split(10, 80, 0) });
    expect(bill.rewardModel.stages[1]?.what).toMatch(/135 train tasks \(25% of the collection's training tasks\)/);
    expect(bill.rewardModel.totalWithoutApart.total).toBe(90 + 4);
    expect(bill.leavesOut[0]).toMatch(/^the rest of the collection \(330\.00M of its 330\.00M tokens\)/);
    expect(demoBill(counts).leavesOut.some((entry) => entry.startsWith('the rest of the collection'))).toBe(false);
  });

  it('never breaks even when a reward-model run costs as much as an execution run', () => {
    const bill = demoBill({ ...counts, rmGrpo: counts.executionGrpo, gain: { rm: 0.1, execution: 0 } });
    expect(bill.savingPerRun).toBe(0);
    expect(bill.breakEvenRuns).toBeNull();
    expect(bill.gainShare).toBeNull();
  });
});
