import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Pair } from '../core/pair.js';
import type { RewardModel } from '../core/reward-model.js';
import type { PairStats } from '../pairs/pair-stats.js';
import { evaluateAgainstBaselines } from '../rm/eval/evaluate-against-baselines.js';
import type { EvaluationData, HeldOutEpisode } from '../rm/eval/evaluate-model.js';
import { parseBonConfig } from '../select/bon-config.js';
import type { TaskOutcome } from '../select/run-best-of-n.js';
import { summarizeBestOfN } from '../select/summarize-best-of-n.js';
import type { GrpoResult } from '../train/grpo-trainer.js';
import { parseGrpoConfig } from '../train/grpo-config.js';
import { parseResults } from './read-results.js';
import { summarizeSwitching } from '../select/summarize-switching.js';
import { bonPicksFromRun, bonResultsFromTables, grpoRunFromResult, pairSourcesFromStats, rmResultsFromReport, switchingRowsOf } from './results-from-stages.js';
import { BonResultsSchema, FamilyRowSchema, TaskPicksSchema, DemoResultsSchema, GrpoRunSchema, RmResultsSchema } from './results-schema.js';

/** A reward model that scores a plan by how many times it mentions `word`. */
function countingModel(name: string, word: string): RewardModel {
  return { name, score: async (_task, plans) => plans.map((plan) => String(plan).split(word).length - 1) };
}

function heldOut(): EvaluationData {
  const pairs: Pair[] = [];
  const episodes: HeldOutEpisode[] = [];
  for (let task = 0; task < 12; task++) {
    const good = `search search ${task}`;
    const bad = task % 3 === 0 ? `cot cot search ${task}` : `cot ${task}`;
    pairs.push({ id: `p${task}`, datasetId: 'd', taskId: `t${task}`, question: `q${task}`, winner: { planText: good }, loser: { planText: bad }, source: task % 2 ? 'outcome' : 'process', weight: 1, evidence: {} });
    episodes.push({ id: `e${task}a`, taskId: `t${task}`, question: `q${task}`, planText: good, correct: true, valid: true });
    episodes.push({ id: `e${task}b`, taskId: `t${task}`, question: `q${task}`, planText: bad, correct: false, valid: true });
  }
  return { pairs, episodes };
}

describe('adapters from stage outputs to results.json', () => {
  test('rm: a real evaluateAgainstBaselines report becomes a valid rm section', async () => {
    const report = await evaluateAgainstBaselines(
      [countingModel('linear', 'search')],
      [
        { kind: 'plan-only', model: countingModel('plan-only', 'cot') },
        { kind: 'length-only', model: countingModel('length-only', ' ') },
      ],
      heldOut(),
      { bestOfN: [2], seed: 1 },
    );
    const rm = RmResultsSchema.parse(rmResultsFromReport(report, { file: 'rm.safetensors' }));
    expect(rm.model).toBe('linear');
    expect(rm.heldOut).toEqual({ pairs: 12, episodes: 24, tasks: 12 });
    expect(rm.pairAccuracy.overall).toMatchObject({ accuracy: 1, correct: 12, total: 12 });
    expect(Object.keys(rm.pairAccuracy.perSource)).toEqual(['outcome', 'process']);
    expect(Object.keys(rm.baselines)).toEqual(['plan-only', 'length-only']);
    expect(rm.baselines['plan-only']!.pairAccuracy.overall.accuracy).toBe(0);
    expect(rm.baselines['plan-only']!.beats).toBe(true);
    expect(rm.bon).toHaveLength(1);
  });

  test('bon: summarizeBestOfN tables become the headline table plus every N', () => {
    const outcomes: TaskOutcome[] = [];
    for (const n of [1, 4]) {
      for (let task = 0; task < 10; task++) {
        for (const strategy of ['single', 'rm', 'oracle'] as const) {
          const correct = strategy === 'single' ? task < 3 : strategy === 'rm' ? task < 3 + n : task < 8;
          outcomes.push({ taskId: `t${task}`, suite: 'arith', n, strategy, correct, executions: strategy === 'oracle' ? n : 1, tokens: { orchestrator: 100 * n, execution: 1000, verification: strategy === 'rm' ? 10 * n : 0 } });
        }
      }
    }
    const config = parseBonConfig({ ns: [1, 4], strategies: ['single', 'rm', 'oracle'], seed: 3, bootstrapResamples: 200 });
    const bon = BonResultsSchema.parse(bonResultsFromTables(summarizeBestOfN({ config, tasks: 10, outcomes, distinctExecutions: 0, requestedExecutions: 0 }), 4));
    expect(bon.n).toBe(4);
    expect(bon.perN.map((table) => table.n)).toEqual([1, 4]);
    expect(bon.strategies.rm).toMatchObject({ accuracy: 0.7, tokens: { orchestrator: 400, execution: 1000, verification: 40, total: 1440 } });
    expect(Object.keys(bon.paired)).toContain('rm-vs-single');
    expect(() => bonResultsFromTables([], 8)).toThrowError('Best-of-N was not run at N = 8');
  });

  test('bon picks and switching: each task keeps every strategy pick and every template outcome', () => {
    const tokens = { orchestrator: 0, execution: 0, verification: 0 };
    const outcomes: TaskOutcome[] = [
      { taskId: 't1', suite: 'arith', n: 8, strategy: 'fixed:cot', correct: false, executions: 1, tokens, pick: { index: 8, source: 'template', kind: 'cot' } },
      { taskId: 't1', suite: 'arith', n: 8, strategy: 'fixed:search', correct: true, executions: 1, tokens, pick: { index: 9, source: 'template', kind: 'search' } },
      { taskId: 't1', suite: 'arith', n: 8, strategy: 'rm+templates', correct: false, executions: 1, tokens, pick: { index: 3, source: 'sample', kind: 'sample:cot(temperature=1)', score: 1.5, uncertainty: 0.25 } },
      { taskId: 't1', suite: 'arith', n: 8, strategy: 'oracle', correct: false, executions: 8, tokens },
      { taskId: 't1', suite: 'arith', n: 4, strategy: 'rm', correct: true, executions: 1, tokens, pick: { index: 0, source: 'sample', kind: 'cot', score: 2 } },
    ];
    const picks = bonPicksFromRun({ outcomes }, 8);
    expect(picks).toEqual([
      {
        taskId: 't1',
        suite: 'arith',
        strategies: { 'rm+templates': { correct: false, pick: { index: 3, source: 'sample', kind: 'sample:cot(temperature=1)', score: 1.5, uncertainty: 0.25 } }, oracle: { correct: false } },
        fixed: { cot: false, search: true },
      },
    ]);
    expect(picks.map((entry) => TaskPicksSchema.parse(entry))).toEqual(picks);
    const switching = switchingRowsOf(summarizeSwitching({ outcomes }, 8), 'arith', 8);
    expect(switching).toEqual([{ strategy: 'rm+templates', bestFixed: 'search', tasks: 1, switched: 1, wins: 0, losses: 1, kinds: { 'sample:cot(temperature=1)': 1 } }]);
    expect(FamilyRowSchema.parse({ family: 'arith', tasks: 1, accuracy: {}, switching }).switching).toEqual(switching);
  });

  test('grpo and pairs: a run and pair stats become their sections', () => {
    const tokens = (total: number) => ({ orchestrator: total / 2, execution: 0, verification: total / 2, total });
    const result: GrpoResult<unknown> & { from: { name: string } } = {
      checkpoint: {},
      config: parseGrpoConfig({ steps: 2 }),
      history: [],
      evaluations: [
        { step: 0, accuracy: 0.2, episodes: 40, tokens: 900, trainingTokens: tokens(0) },
        { step: 2, accuracy: 0.35, episodes: 40, tokens: 900, trainingTokens: tokens(5000) },
      ],
      evaluationTokens: 1800,
      from: { name: 'base' },
    };
    const run = GrpoRunSchema.parse(grpoRunFromResult(result));
    expect(run).toMatchObject({ from: 'base', steps: 2, accuracy: 0.35, trainingTokens: tokens(5000), evaluationTokens: 1800 });
    expect(run.curve.map((point) => point.step)).toEqual([0, 2]);

    const splits = { train: 0, validation: 0, test: 0, unassigned: 0 };
    const stats: PairStats = {
      pairs: 30,
      bySplit: splits,
      bySource: { outcome: { pairs: 20, bySplit: splits }, process: { pairs: 10, bySplit: splits } },
      agreementWithOutcome: { process: { pairs: 10, graded: 8, atLeastAsGood: 0.875, differing: 4, strictlyBetter: 0.75 } },
      datasets: [],
    };
    expect(pairSourcesFromStats(stats)).toEqual({
      outcome: { count: 20, agreementWithOutcome: null },
      process: { count: 10, agreementWithOutcome: 0.75, differing: 4, atLeastAsGood: 0.875 },
    });
  });

  test('the fixture round-trips through the schema unchanged', () => {
    const text = readFileSync(new URL('./test-fixtures/results.json', import.meta.url), 'utf8');
    expect(DemoResultsSchema.parse(JSON.parse(text))).toEqual(parseResults(text, 'fixture'));
    expect(JSON.parse(JSON.stringify(parseResults(text, 'fixture')))).toEqual(JSON.parse(text));
  });
});
