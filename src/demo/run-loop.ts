import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EventSink, LogEvent } from '../core/index.js';
import { collectEpisodes } from '../collect/index.js';
import type { Orchestrator } from '../orchestrator/index.js';
import { minePairs } from '../pairs/index.js';
import { DemoResultsSchema, intervalTuple, renderReport, type DemoResults } from '../report/index.js';
import { evaluateRewardModel, loadEvaluationData, parseBtConfig, trainRewardModel, type TrainedRewardModel } from '../rm/index.js';
import { runBestOfN, summarizeBestOfN } from '../select/index.js';
import { createSimEnvironment, loadScenario, type SimEnvironment } from '../sim/index.js';
import { openStore } from '../store/index.js';
import { createRewardRankedOrchestrator } from './reward-ranked-orchestrator.js';
import { tokenSplit } from './token-split.js';

export interface LoopOptions {
  /** The simulated environment the loop runs in. @default the `default` scenario's */
  environment?: SimEnvironment;
  /** Where loop.json and loop.db go; a results.json there (from `orchrm demo`) gains the rounds. */
  outDir: string;
  rounds: number;
  /** New train tasks collected per round. @default 100 */
  tasksPerRound?: number;
  /** Plans executed per task. @default 4 */
  plansPerTask?: number;
  /** Candidates the reward model ranks for each plan it lets execute (from round 2). @default 4 */
  candidates?: number;
  /** Held-out test tasks for Best-of-8. @default 100 */
  testTasks?: number;
  /** @default 0 */
  seed?: number;
  /** One `info` log line (source `loop`) per stage and step, for stderr. */
  events?: EventSink<LogEvent>;
}

export type LoopRound = NonNullable<DemoResults['loop']>[number];

/**
 * The self-improvement loop OrchRM promises, measured: each round collects episodes with the
 * current orchestrator and reward model (the model picks the best of `candidates` plans to
 * execute), mines pairs from everything collected so far, retrains the model, and records
 * held-out pairwise accuracy, Best-of-8 accuracy and the tokens the round spent collecting.
 * Whether more data keeps helping is what it measures, not what it assumes.
 */
export async function runLoop(options: LoopOptions): Promise<{ rounds: LoopRound[]; loopPath: string; reportPath?: string }> {
  const { rounds, tasksPerRound = 100, plansPerTask = 4, candidates = 4, testTasks = 100, seed = 0 } = options;
  const progress = (message: string) => options.events?.({ type: 'log', level: 'info', source: 'loop', message });
  const outDir = resolve(options.outDir);
  mkdirSync(outDir, { recursive: true });
  const dbPath = join(outDir, 'loop.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
  const environment = options.environment ?? (await createSimEnvironment(loadScenario('default')));
  const { scenario } = environment;
  const base = environment.orchestrator('base');
  const trainTasks = environment.tasks('train', rounds * tasksPerRound);
  const heldOut = environment.tasks('test', testTasks);
  const config = parseBtConfig({ seed });
  const store = openStore(dbPath);
  const history: LoopRound[] = [];
  let model: TrainedRewardModel | undefined;
  try {
    for (let round = 1; round <= rounds; round++) {
      let rankingTokens = 0;
      const orchestrator: Orchestrator = model ? createRewardRankedOrchestrator(base, model, candidates, (tokens) => (rankingTokens += tokens)) : base;
      const collected = await collectEpisodes({
        environment,
        tasks: trainTasks.slice((round - 1) * tasksPerRound, round * tasksPerRound),
        orchestrator,
        store,
        plansPerTask,
        concurrency: 8,
        seed: seed + round,
        config: { purpose: 'loop', round },
      });
      const mined = minePairs(store, { config: { seed }, datasetId: `loop-round-${round}` });
      const training = [...store.iteratePairs({ datasetId: mined.datasetId })].filter((pair) => pair.split !== 'test');
      const { model: next } = await trainRewardModel(training, config, { name: `orchrm-bt-linear-round-${round}` });
      model?.close();
      model = next;
      const evaluation = await evaluateRewardModel(model, loadEvaluationData(store, { datasetId: mined.datasetId }), { seed });
      const bon = summarizeBestOfN(
        await runBestOfN({
          environment,
          tasks: heldOut,
          orchestrator: base,
          rewardModel: model,
          config: { ns: [8], strategies: ['rm'], seed },
        }),
      )[0]?.strategies.rm;
      const tokens = tokenSplit(collected.tokens);
      tokens.verification += rankingTokens;
      tokens.total += rankingTokens;
      const entry: LoopRound = {
        round,
        pairAccuracy: evaluation.pairs.accuracy.overall.accuracy,
        pairAccuracyCi: intervalTuple(evaluation.pairs.accuracy.overall.ci),
        bonAccuracy: bon?.accuracy ?? 0,
        ...(bon !== undefined && { bonAccuracyCi: bon.ci }),
        tokens,
        pairs: training.length,
      };
      history.push(entry);
      progress(`round ${round}/${rounds}: ${training.length} training pairs, held-out pairwise accuracy ${(entry.pairAccuracy * 100).toFixed(1)}%, Best-of-8 ${(entry.bonAccuracy * 100).toFixed(1)}%, ${tokens.total} tokens`);
    }
  } finally {
    model?.close();
    store.close();
  }
  const loopPath = join(outDir, 'loop.json');
  writeFileSync(loopPath, `${JSON.stringify({ scenario: scenario.name, seed, rounds: history }, null, 2)}\n`);
  const resultsPath = join(outDir, 'results.json');
  if (!existsSync(resultsPath)) return { rounds: history, loopPath };
  const results = DemoResultsSchema.parse({ ...JSON.parse(readFileSync(resultsPath, 'utf8')), loop: history });
  writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
  const { path: reportPath } = await renderReport(results, { outDir });
  return { rounds: history, loopPath, reportPath };
}
