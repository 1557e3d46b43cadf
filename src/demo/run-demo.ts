import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createBlockRegistry } from '../agents/index.js';
import { collectEpisodes } from '../collect/index.js';
import type { Pair } from '../core/pair.js';
import { ORCHRM_VERSION } from '../core/version.js';
import { createLlmOrchestrator } from '../orchestrator/index.js';
import { minePairs, pairStats } from '../pairs/index.js';
import { bonResultsFromTables, DemoResultsSchema, grpoRunFromResult, pairSourcesFromStats, renderReport, rmResultsFromReport, type DemoResults } from '../report/index.js';
import { evaluateWithBaselines, loadEvaluationData, parseBtConfig, registerRewardModel, saveRewardModel, trainingSource, trainRewardModel } from '../rm/index.js';
import { recordBestOfN, runBestOfN } from '../select/index.js';
import { baseCheckpoint, createSimEnvironment, generateScenarioTasks, loadScenario, type PolicyCheckpoint, type SimEnvironment } from '../sim/index.js';
import { improveByExecution } from '../sim/improve/index.js';
import { openStore, type Store } from '../store/index.js';
import { exactMatchGrader } from '../tasks/index.js';
import { runSimGrpo } from '../train/index.js';
import { FULL_SIZES, QUICK_SIZES, type DemoSizes } from './demo-config.js';
import { familyRows } from './family-rows.js';
import { addTokenSplits, tokenSplit } from './token-split.js';

export interface DemoOptions {
  /** Built-in scenario name or scenario file. @default 'default' */
  scenario?: string;
  /** Where results.json, report.html, rm.safetensors and demo.db go. */
  outDir: string;
  /** @default 0 */
  seed?: number;
  /** Smaller sizes that fit in about a minute. @default false */
  quick?: boolean;
  /** One line per stage and step, for stderr. */
  onProgress?: (line: string) => void;
}

export interface DemoOutcome {
  results: DemoResults;
  resultsPath: string;
  reportPath: string;
  modelPath: string;
}

/** Best-of-N's headline N, as in the paper's figures. */
const HEADLINE_N = 8;

/**
 * OrchRM's whole story on the controlled environment, start to finish: a stronger orchestrator
 * checkpoint trained with execution reward; episodes from it and from base; pairs mined without
 * labels; a Bradley-Terry reward model with its baselines; Best-of-N with every strategy; GRPO
 * from base with the reward model and with execution reward. Writes results.json, report.html,
 * the reward model and the store with everything in it.
 */
export async function runDemo(options: DemoOptions): Promise<DemoOutcome> {
  const startedAt = performance.now();
  const { scenario: scenarioName = 'default', seed = 0, quick = false } = options;
  const sizes: DemoSizes = quick ? QUICK_SIZES : FULL_SIZES;
  const progress = options.onProgress ?? (() => {});
  const outDir = resolve(options.outDir);
  mkdirSync(outDir, { recursive: true });
  const dbPath = join(outDir, 'demo.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true }); // each demo starts from an empty store
  const scenario = loadScenario(scenarioName);

  progress(`1/6 training a stronger orchestrator checkpoint with execution reward (${sizes.improve.rounds} rounds)`);
  const improved = await improveByExecution(await createSimEnvironment(scenario), baseCheckpoint(), { name: 'strong', seed, ...sizes.improve });
  const strong = improved.checkpoint;
  const environment = await createSimEnvironment(scenario, { checkpoints: [strong] });
  const store = openStore(dbPath);
  try {
    progress(`2/6 collecting episodes: ${sizes.collect.tasks} train tasks x ${sizes.collect.plansPerTask} plans from base and from strong`);
    const collectionTokens = [];
    for (const [index, checkpoint] of [baseCheckpoint(), strong].entries()) {
      const summary = await collect(environment, store, checkpoint, sizes, seed + index);
      collectionTokens.push(tokenSplit(summary.tokens));
      progress(`    ${checkpoint.name}: ${summary.episodes} episodes, accuracy ${percent(summary.accuracy ?? 0)}`);
    }

    progress('3/6 mining win-lose pairs from the episodes (no labels used by checkpoint and process pairs)');
    const mined = minePairs(store, { config: { seed } });
    const stats = pairStats(store, { datasetId: mined.datasetId });
    progress(`    ${mined.pairs} pairs: ${Object.entries(stats.bySource).map(([source, entry]) => `${source} ${entry.pairs}`).join(', ')}`);

    progress('4/6 training the Bradley-Terry reward model and its baselines');
    const trainingPairs: Pair[] = [...store.iteratePairs({ datasetId: mined.datasetId })].filter((pair) => pair.split !== 'test');
    const config = parseBtConfig({ seed, maxEpochs: sizes.rmEpochs });
    const { model } = await trainRewardModel(trainingPairs, config, { name: 'orchrm-bt-linear' });
    model.provenance.metrics = { ...model.provenance.metrics, datasetId: mined.datasetId };
    model.provenance.trainedOn = trainingSource(store, mined.datasetId);
    const modelPath = join(outDir, 'rm.safetensors');
    await saveRewardModel(model, modelPath);
    registerRewardModel(store, model, modelPath);
    const evaluation = await evaluateWithBaselines([model], loadEvaluationData(store, { datasetId: mined.datasetId }), { trainingPairs, config, seed });

    progress(`5/6 Best-of-N on ${sizes.bon.tasks} test tasks, N up to ${HEADLINE_N}, every strategy`);
    const blocks = createBlockRegistry();
    const bonRun = await runBestOfN({
      tasks: generateScenarioTasks(scenario, environment.families, { split: 'test', count: sizes.bon.tasks }),
      orchestrator: simOrchestrator(environment, baseCheckpoint(), blocks),
      provider: environment.provider,
      judge: environment.provider,
      blocks,
      retriever: environment.retriever,
      grader: exactMatchGrader,
      rewardModel: model,
      config: { ns: sizes.bon.ns, seed },
    });
    const bon = recordBestOfN(store, bonRun, { scenario: scenario.name, rewardModel: modelPath });

    progress(`6/6 GRPO from base, ${sizes.grpo.steps} steps each: reward-model reward vs execution reward`);
    const grpo = async (reward: 'rm' | 'execution') =>
      runSimGrpo({
        scenario,
        reward,
        rewardModel: model,
        config: { steps: sizes.grpo.steps, tasksPerStep: sizes.grpo.tasksPerStep, groupSize: sizes.grpo.groupSize, evalInterval: sizes.grpo.evalInterval, seed, name: `grpo-${reward}` },
        trainTaskOffset: sizes.collect.tasks,
        evaluation: { tasks: sizes.grpo.evalTasks, samplesPerTask: sizes.grpo.evalSamples, seed },
        store,
        onStep: (log) => progress(`    ${reward} step ${log.step}: mean reward ${log.meanReward.toFixed(3)}`),
      });
    const grpoRm = await grpo('rm');
    const grpoExecution = await grpo('execution');

    const results: DemoResults = DemoResultsSchema.parse({
      schemaVersion: 1,
      scenario: scenario.name,
      seed,
      version: ORCHRM_VERSION,
      durationMs: performance.now() - startedAt,
      config: { quick, sizes, headlineN: HEADLINE_N, encoder: config.encoder, head: config.head, datasetId: mined.datasetId, strongCheckpoint: { name: strong.name, step: strong.step, trainingTokens: improved.rounds.reduce((sum, round) => sum + round.executionTokens, 0) } },
      pairs: pairSourcesFromStats(stats),
      rm: rmResultsFromReport(evaluation, { file: 'rm.safetensors' }),
      bon: bonResultsFromTables(bon.curve, HEADLINE_N),
      grpo: {
        baseAccuracy: grpoRm.evaluations[0]?.accuracy ?? 0,
        rmCollectionTokens: addTokenSplits(...collectionTokens),
        rm: grpoRunFromResult(grpoRm),
        execution: grpoRunFromResult(grpoExecution),
      },
      families: familyRows(bon.bySuite, HEADLINE_N),
    });
    const resultsPath = join(outDir, 'results.json');
    writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
    const { path: reportPath } = await renderReport(results, { outDir });
    model.close();
    return { results, resultsPath, reportPath, modelPath };
  } finally {
    store.close();
  }
}

function simOrchestrator(environment: SimEnvironment, checkpoint: PolicyCheckpoint, blocks: ReturnType<typeof createBlockRegistry>) {
  return createLlmOrchestrator({
    provider: environment.provider,
    catalog: blocks,
    model: `sim-orchestrator-${checkpoint.name}`,
    ref: { name: 'sim-orchestrator', checkpoint: checkpoint.name, step: checkpoint.step },
  });
}

async function collect(environment: SimEnvironment, store: Store, checkpoint: PolicyCheckpoint, sizes: DemoSizes, seed: number) {
  const blocks = createBlockRegistry();
  return collectEpisodes({
    tasks: generateScenarioTasks(environment.scenario, environment.families, { split: 'train', count: sizes.collect.tasks }),
    orchestrator: simOrchestrator(environment, checkpoint, blocks),
    provider: environment.provider,
    blocks,
    store,
    plansPerTask: sizes.collect.plansPerTask,
    concurrency: 8,
    seed,
    retriever: environment.retriever,
    grader: exactMatchGrader,
    config: { purpose: 'demo', checkpoint: checkpoint.name, scenario: environment.scenario.name },
  });
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}
