import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type EventSink, type LogEvent, ORCHRM_VERSION, type Pair, type RewardModel, UserError } from '../core/index.js';
import { collectEpisodes } from '../collect/index.js';
import { minePairs, pairStats } from '../pairs/index.js';
import {
  bonPicksFromRun,
  bonResultsFromTables,
  DemoResultsSchema,
  grpoRunFromResult,
  learningCurvePointResult,
  RESULTS_SCHEMA_VERSION,
  outcomePairsResult,
  pairSourcesFromStats,
  renderReport,
  rmResultsFromReport,
  type DemoResults,
} from '../report/index.js';
import {
  collectionTokenSplitsByTask,
  curveShareTasks,
  curveTaskOrder,
  evaluateWithBaselines,
  learningCurve,
  loadEvaluationData,
  loadTrainingPairs,
  parseBtConfig,
  scoreHeldOut,
  summarizeScores,
  taskTokenTotals,
  trainRewardModel,
  trainStoredRewardModel,
  validPairsDifference,
  type EvaluationData,
  type TemplateRouterReport,
  type TrainedRewardModel,
} from '../rm/index.js';
import { recordBestOfN, runBestOfN, summarizeBestOfN, summarizeFrontier, type BestOfNOptions } from '../select/index.js';
import { baseCheckpoint, createSimEnvironment, improveByExecution, loadScenario, type PolicyCheckpoint, type SimEnvironment } from '../sim/index.js';
import { openStore, type Store } from '../store/index.js';
import { runGrpo } from '../train/index.js';
import { FULL_SIZES, mergeSizes, QUICK_SIZES, type DemoSizes, type DemoSizesInput } from './demo-config.js';
import { grpoSeedsSummary } from './grpo-seeds.js';
import { familyRows } from './family-rows.js';
import { addTokenSplits, taskTokenSplit, tokenSplit } from './token-split.js';
import { demoBill } from './bill.js';
import { costModelResults } from './cost-model-results.js';

export interface DemoOptions {
  /** The simulated environment of the scenario the demo runs in. @default the `default` scenario's */
  environment?: SimEnvironment;
  /** Where results.json, report.html, rm.safetensors and demo.db go. */
  outDir: string;
  /** @default 0 */
  seed?: number;
  /** Smaller sizes for tests and a first look. @default false */
  quick?: boolean;
  /** Sizes that replace those of the full (or quick) run, field by field, e.g. for a family with few tasks such as hotpot. */
  sizes?: DemoSizesInput;
  /** One `info` log line (source `demo`) per stage and step, for stderr. */
  events?: EventSink<LogEvent>;
}

export interface DemoOutcome {
  results: DemoResults;
  resultsPath: string;
  reportPath: string;
  modelPath: string;
}

/**
 * The encoders the demo's reward model chooses among on its validation split (issue 21): the task's
 * and plan's shapes with the word problem's structure and the names' popularity crossed with the
 * plan shape at full weight (`route`, `popularity`), alone or with the task's words crossed with
 * the plan's block kinds (`cross`, which can also memorise tasks).
 */
export const DEMO_ENCODER_CANDIDATES = ['shape,route,popularity', 'shape,cross,route,popularity'] as const;

/** Best-of-N's headline N, as in the paper's figures. */
const HEADLINE_N = 8;

/** Stages the demo announces (`i/STAGES ...` on stderr). */
const STAGES = 8;

/** Shares of the collection's training tasks the demo's learning curve trains on (the last is all of it). */
const CURVE_SHARES = [0.125, 0.25, 0.5, 1];

/**
 * OrchRM's whole story on the controlled environment, start to finish: a stronger orchestrator
 * checkpoint trained with execution reward; episodes from it and from base; pairs mined twice,
 * with every source and label-free (no grade read anywhere); a Bradley-Terry reward model on
 * each, with the outcome-only model and three baselines beside them; Best-of-N with every
 * strategy, the template pool and the fixed-plan baselines; GRPO from base with the reward model
 * and with execution reward. Writes results.json, report.html, the reward model and the store
 * with everything in it.
 */
export async function runDemo(options: DemoOptions): Promise<DemoOutcome> {
  const startedAt = performance.now();
  const { seed = 0, quick = false } = options;
  const sizes: DemoSizes = mergeSizes(quick ? QUICK_SIZES : FULL_SIZES, options.sizes);
  const progress = (message: string) => options.events?.({ type: 'log', level: 'info', source: 'demo', message });
  const elapsed = () => `${Math.round((performance.now() - startedAt) / 1000)} s`;
  const stage = (index: number, text: string) => progress(`${index}/${STAGES} ${text} (at ${elapsed()})`);
  const outDir = resolve(options.outDir);
  mkdirSync(outDir, { recursive: true });
  const dbPath = join(outDir, 'demo.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true }); // each demo starts from an empty store
  const start = options.environment ?? (await createSimEnvironment(loadScenario('default')));
  // Other commands warn and go on; a demo without a family its scenario names would report figures under the scenario's name that are not its.
  if (start.unavailable.length > 0) {
    const reasons = start.unavailable.map((missing) => `${missing.family}: ${missing.reason}`).join('; ');
    throw new UserError(`scenario ${start.scenario.name} names families that cannot be loaded (${reasons}); the demo would run without them. Provide the data, run from the folder the scenario's paths are relative to, or give the family weight 0`);
  }
  const { scenario } = start;

  stage(1, `training a stronger orchestrator checkpoint with execution reward (${sizes.improve.rounds} rounds)`);
  const improved = await improveByExecution(start, baseCheckpoint(), { name: 'strong', seed, ...sizes.improve });
  const strong = improved.checkpoint;
  const environment = await start.withCheckpoints([strong]);
  const store = openStore(dbPath);
  try {
    stage(2, `collecting episodes: ${sizes.collect.tasks} train tasks x ${sizes.collect.plansPerTask} plans from base and from strong, and the ${environment.templates.names.length} templates on ${percent(sizes.collect.templateShare)} of the tasks`);
    const collectionSplits = [];
    let templateCollection: { tasks: number; episodes: number; tokens: ReturnType<typeof tokenSplit> } | undefined;
    for (const [index, checkpoint] of [baseCheckpoint(), strong].entries()) {
      // The templates run once, beside the base checkpoint's plans.
      const summary = await collect(environment, store, checkpoint, sizes, seed + index, index === 0 ? sizes.collect.templateShare : 0);
      collectionSplits.push(tokenSplit(summary.tokens));
      if (summary.templates !== undefined && summary.templates.episodes > 0) templateCollection = { tasks: summary.templates.tasks, episodes: summary.templates.episodes, tokens: tokenSplit(summary.templates.tokens) };
      progress(`    ${checkpoint.name}: ${summary.episodes} episodes${summary.templates?.episodes ? ` (${summary.templates.episodes} of them templates)` : ''}, accuracy ${percent(summary.accuracy ?? 0)}`);
    }

    stage(3, 'mining win-lose pairs: every source (grades used by outcome and efficiency pairs and to weigh sources), then label-free (no grade read)');
    const mined = minePairs(store, { config: { seed } });
    const labelFreeMined = minePairs(store, { config: { seed, labelFree: true } });
    const stats = pairStats(store, { datasetId: mined.datasetId });
    for (const [label, result] of [['every source', mined], ['label-free', labelFreeMined]] as const) {
      progress(`    ${label}: ${result.pairs} pairs (${Object.entries(result.sources).map(([source, report]) => `${source} ${report?.kept ?? 0}`).join(', ')})`);
    }

    stage(4, 'training the Bradley-Terry reward models (every source, label-free, outcome only) and three baselines, each tuned on its validation split');
    const config = parseBtConfig({ seed, maxEpochs: sizes.rmEpochs, encoderCandidates: [...DEMO_ENCODER_CANDIDATES] });
    const modelPath = join(outDir, 'rm.safetensors');
    const { model, config: chosenConfig, pairs: trainingPairs, encoderChoice } = await trainStoredRewardModel(store, mined.datasetId, config, { out: modelPath, name: 'orchrm-bt-linear' });
    progress(`    encoder chosen by ${encoderChoice?.by}: ${encoderChoice?.candidates.map((candidate) => `${candidate.encoder} ${candidate.validVsValidAccuracy === null ? '' : percent(candidate.validVsValidAccuracy)}`).join(', ')}; kept ${encoderChoice?.chosen}`);
    // The baselines and the outcome-only model read the chosen encoder (each tuned on its own validation split).
    const { encoderCandidates: _candidates, ...chosenEncoderConfig } = { ...config, encoder: chosenConfig.encoder };
    const heldOut = loadEvaluationData(store, { datasetId: mined.datasetId });
    const evaluation = await evaluateWithBaselines([model], heldOut, { trainingPairs, config: chosenEncoderConfig, seed });
    const labelFreePairs = loadTrainingPairs(store, labelFreeMined.datasetId);
    // Label-free chooses among the same candidates, by validation loss: its pairs read no grade, so it has no outcome pairs to choose on.
    const labelFree = (await trainRewardModel(labelFreePairs, config, { name: 'orchrm-bt-label-free' })).model;
    const outcomePairs = trainingPairs.filter((pair) => pair.source === 'outcome');
    // Compared on held-out pairs only, never used to choose: no bootstrap heads.
    const outcomeOnly = (await trainRewardModel(outcomePairs, { ...chosenEncoderConfig, ensembleSize: 0 }, { name: 'orchrm-bt-outcome-only' })).model;
    const alternatives = await compareAlternatives(heldOut, { model, labelFree, outcomeOnly }, { labelFree: labelFreePairs, outcomeOnly: outcomePairs }, seed);

    stage(5, `learning curve: the reward model trained on ${CURVE_SHARES.map((share) => `${share * 100}%`).join(', ')} of the collection's training tasks (chosen settings, not tuned), every point judged on the same held-out tasks`);
    const tokensByTask = collectionTokenSplitsByTask(store, mined.datasetId);
    // The GRPO reward model reads a share of the collection's training tasks, in the learning curve's order: the curve's point at that share, trained once for both.
    const grpoTasks = curveShareTasks(curveTaskOrder(tokensByTask.keys(), heldOut, seed), sizes.grpo.rewardShare);
    const grpoPairs = trainingPairs.filter((pair) => grpoTasks.has(pair.taskId));
    if (grpoPairs.length === 0) throw new UserError(`the GRPO reward model's share ${sizes.grpo.rewardShare} of the collection (${grpoTasks.size} tasks) has no training pairs; give sizes.grpo.rewardShare a larger share`);
    const curveConfig = { ...chosenConfig, tune: false as const };
    const grpoModel = sizes.grpo.rewardShare === 1 ? undefined : (await trainRewardModel(grpoPairs, { ...curveConfig, ensembleSize: 0 }, { name: `orchrm-bt-grpo-share-${sizes.grpo.rewardShare}` })).model;
    const curvePoints = await learningCurve(trainingPairs, heldOut, taskTokenTotals(tokensByTask), {
      shares: CURVE_SHARES,
      n: HEADLINE_N,
      seed,
      config: curveConfig,
      ...(grpoModel !== undefined && { trained: new Map([[sizes.grpo.rewardShare, grpoModel]]) }),
    });
    for (const point of curvePoints) progress(`    ${point.share * 100}% (${point.tasks} tasks): valid-vs-valid ${percent(point.validVsValid.accuracy)}, Best-of-${HEADLINE_N} ${percent(point.bestOfN.accuracy)}`);

    stage(6, `Best-of-N on ${sizes.bon.tasks} test tasks, N up to ${HEADLINE_N}: every strategy, the template pool and the fixed-plan baselines`);
    const bonOptions: BestOfNOptions = {
      environment,
      tasks: environment.tasks('test', sizes.bon.tasks),
      orchestrator: environment.orchestrator('base'),
      rewardModel: model,
      // The frontier (issue 22): rm+templates again at the largest N under a sweep of prices and margins, and rm-templates-only with the router alone.
      config: { ns: sizes.bon.ns, seed, pool: 'sampled+templates', frontier: model.canEstimate },
    };
    const bonRun = await runBestOfN(bonOptions);
    const frontier = summarizeFrontier(bonRun);
    const routerFrontier = summarizeFrontier(bonRun, 'rm-templates-only');
    const bon = recordBestOfN(store, bonRun, { scenario: scenario.name, rewardModel: modelPath, pool: 'sampled+templates' });
    progress('    the same with the label-free reward model (rm strategies only)');
    const labelFreeRun = await runBestOfN({ ...bonOptions, rewardModel: labelFree, config: { ns: [HEADLINE_N], seed, pool: 'sampled+templates', strategies: ['single', 'first-valid', 'rm', 'rm+templates'] } });
    const costModel = await costModelResults(model, heldOut);
    const labelFreeTable = summarizeBestOfN(labelFreeRun).find((table) => table.n === HEADLINE_N)!;

    const grpoSeeds = Array.from({ length: sizes.grpo.seeds }, (_, index) => seed + index);
    const grpoCollectionTokens = addTokenSplits(...[...grpoTasks].map((taskId) => taskTokenSplit(tokensByTask.get(taskId))));
    stage(7, `GRPO from base, ${sizes.grpo.steps} steps each: reward-model reward (the model trained on ${percent(sizes.grpo.rewardShare)} of the collection's training tasks, ${grpoTasks.size} tasks) vs execution reward, seeds ${grpoSeeds.join(', ')}`);
    const grpo = async (reward: 'rm' | 'execution', runSeed: number) =>
      runGrpo(environment, {
        reward,
        rewardModel: grpoModel ?? model,
        config: { steps: sizes.grpo.steps, tasksPerStep: sizes.grpo.tasksPerStep, groupSize: sizes.grpo.groupSize, evalInterval: sizes.grpo.evalInterval, seed: runSeed, name: runSeed === seed ? `grpo-${reward}` : `grpo-${reward}-seed${runSeed}` },
        trainTaskOffset: sizes.collect.tasks,
        evaluation: { tasks: sizes.grpo.evalTasks, samplesPerTask: sizes.grpo.evalSamples, seed },
        store,
        events: (event) => {
          if (event.type === 'grpo-step-end') progress(`    ${reward} seed ${runSeed} step ${event.log.step}: mean reward ${event.log.meanReward.toFixed(3)}`);
        },
      });
    const grpoRuns = { rm: [] as Awaited<ReturnType<typeof grpo>>[], execution: [] as Awaited<ReturnType<typeof grpo>>[] };
    for (const runSeed of grpoSeeds) {
      grpoRuns.rm.push(await grpo('rm', runSeed));
      grpoRuns.execution.push(await grpo('execution', runSeed));
    }
    const [grpoRm, grpoExecution] = [grpoRuns.rm[0]!, grpoRuns.execution[0]!];

    stage(8, 'writing results.json and report.html');
    const grpoSeedRuns = grpoSeedsSummary(grpoSeeds, { rm: grpoRuns.rm.map(grpoRunFromResult), execution: grpoRuns.execution.map(grpoRunFromResult) });
    const baseAccuracy = grpoRm.evaluations[0]?.accuracy ?? 0;
    const strongCheckpointTokens = {
      orchestrator: improved.rounds.reduce((sum, round) => sum + round.orchestratorTokens, 0),
      execution: improved.rounds.reduce((sum, round) => sum + round.executionTokens, 0),
      verification: 0,
    };
    const collectionTokens = addTokenSplits(...collectionSplits);
    const rmCollectionTokens = grpoModel === undefined ? collectionTokens : grpoCollectionTokens;
    const results: DemoResults = DemoResultsSchema.parse({
      schemaVersion: RESULTS_SCHEMA_VERSION,
      scenario: scenario.name,
      scenarioSeed: scenario.seed,
      scenarioControl: scenario.control,
      seed,
      version: ORCHRM_VERSION,
      durationMs: performance.now() - startedAt,
      config: {
        quick,
        sizes,
        headlineN: HEADLINE_N,
        encoder: chosenConfig.encoder,
        ...(encoderChoice !== undefined && { encoderChoice }),
        head: chosenConfig.head,
        tuned: { l2: chosenConfig.l2, learningRate: chosenConfig.learningRate, hashBits: chosenConfig.encoder.hashBits },
        datasetId: mined.datasetId,
        labelFreeDatasetId: labelFreeMined.datasetId,
        mining: mined.config,
        strongCheckpoint: { name: strong.name, step: strong.step, trainingTokens: { ...strongCheckpointTokens, total: strongCheckpointTokens.orchestrator + strongCheckpointTokens.execution } },
        bonPool: 'sampled+templates',
        templates: environment.templates.names,
        scenarioDefinition: scenario,
        ...(templateCollection !== undefined && { templateCollection }),
      },
      pairs: pairSourcesFromStats(stats),
      rm: rmResultsFromReport(evaluation, { file: 'rm.safetensors' }),
      ...(costModel !== undefined && { costModel }),
      reliability: mined.reliability,
      labelFree: {
        ...alternatives.labelFree,
        reliability: labelFreeMined.reliability,
        bon: { n: labelFreeTable.n, tasks: labelFreeTable.tasks, strategies: labelFreeTable.strategies, paired: labelFreeTable.paired },
      },
      outcomeOnly: alternatives.outcomeOnly,
      bon: { ...bonResultsFromTables(bon.curve, HEADLINE_N), picks: bonPicksFromRun(bonRun, HEADLINE_N), ...(frontier !== undefined && { frontier }), ...(routerFrontier !== undefined && { routerFrontier }), ...(bonRun.templateReferences !== undefined && { templateReferences: bonRun.templateReferences }), ...(bonRun.templateChoice === 'router' && { templateRouter: model.provenance.metrics?.templateRouter as TemplateRouterReport }) },
      grpo: {
        baseAccuracy,
        rmCollectionTokens,
        ...(grpoModel !== undefined && { rewardModel: { share: sizes.grpo.rewardShare, tasks: grpoTasks.size, pairs: grpoPairs.length, wholeCollectionTokens: collectionTokens } }),
        rm: grpoRunFromResult(grpoRm),
        execution: grpoRunFromResult(grpoExecution),
        seeds: grpoSeedRuns,
      },
      families: familyRows(bon.bySuite, HEADLINE_N, bon.switching),
      learningCurve: {
        n: HEADLINE_N,
        heldOut: { tasks: new Set(heldOut.episodes.map((episode) => episode.taskId)).size, episodes: heldOut.episodes.length, validPairs: curvePoints[0]?.validVsValid.total ?? 0 },
        notInPoints: 'the held-out tasks\' episodes and the stronger checkpoint\'s training (both in the bill)',
        points: curvePoints.map(learningCurvePointResult),
      },
      bill: demoBill({
        strongCheckpoint: { ...strongCheckpointTokens, total: strongCheckpointTokens.orchestrator + strongCheckpointTokens.execution },
        collection: rmCollectionTokens,
        ...(grpoModel !== undefined && { collectionShare: { share: sizes.grpo.rewardShare, tasks: grpoTasks.size, wholeCollection: collectionTokens } }),
        rmGrpo: grpoSeedRuns.rm.trainingTokens,
        executionGrpo: grpoSeedRuns.execution.trainingTokens,
        gain: { rm: grpoSeedRuns.rm.mean - baseAccuracy, execution: grpoSeedRuns.execution.mean - baseAccuracy },
      }),
    });
    const resultsPath = join(outDir, 'results.json');
    writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
    const { path: reportPath } = await renderReport(results, { outDir });
    for (const entry of [model, labelFree, outcomeOnly, grpoModel]) entry?.close();
    return { results, resultsPath, reportPath, modelPath };
  } finally {
    store.close();
  }
}

/** Pairs by source, for the record of what a model was trained on. */
function countBySource(pairs: readonly Pair[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const pair of pairs) counts[pair.source] = (counts[pair.source] ?? 0) + 1;
  return counts;
}

/**
 * The label-free and outcome-only models on the main model's held-out data: their outcome-pair
 * accuracies and their paired differences on the valid-vs-valid pairs (label-free minus
 * outcome-only; outcome-only minus the main model).
 */
async function compareAlternatives(
  heldOut: EvaluationData,
  models: { model: TrainedRewardModel; labelFree: TrainedRewardModel; outcomeOnly: TrainedRewardModel },
  trainedOn: { labelFree: readonly Pair[]; outcomeOnly: readonly Pair[] },
  seed: number,
) {
  const score = (entry: RewardModel) => scoreHeldOut(entry, heldOut, { seed });
  const [main, labelFree, outcomeOnly] = await Promise.all([score(models.model), score(models.labelFree), score(models.outcomeOnly)]);
  const describe = (name: string, scores: typeof main, pairs: readonly Pair[], against: typeof main, againstName: string, key: string) => {
    const difference = validPairsDifference(heldOut, scores, against, seed + key.length) ?? { pairs: 0, difference: 0, ci: { low: 0, high: 0 } };
    return {
      model: name,
      pairs: countBySource(pairs),
      outcomePairs: outcomePairsResult(summarizeScores(name, heldOut, scores, { seed })),
      difference: { diff: difference.difference, ci: [difference.ci.low, difference.ci.high] as [number, number], pairs: difference.pairs, measuredOn: 'valid-vs-valid outcome pairs' },
      comparedWith: againstName,
    };
  };
  return {
    labelFree: describe(models.labelFree.name, labelFree, trainedOn.labelFree, outcomeOnly, models.outcomeOnly.name, 'label-free'),
    outcomeOnly: describe(models.outcomeOnly.name, outcomeOnly, trainedOn.outcomeOnly, main, models.model.name, 'outcome-only'),
  };
}

async function collect(environment: SimEnvironment, store: Store, checkpoint: PolicyCheckpoint, sizes: DemoSizes, seed: number, templateShare: number) {
  return collectEpisodes({
    ...(templateShare > 0 && { templates: { library: environment.templates, share: templateShare } }),
    environment,
    tasks: environment.tasks('train', sizes.collect.tasks),
    orchestrator: environment.orchestrator(checkpoint.name),
    store,
    plansPerTask: sizes.collect.plansPerTask,
    concurrency: 8,
    seed,
    config: { purpose: 'demo', checkpoint: checkpoint.name, scenario: environment.scenario.name },
  });
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

