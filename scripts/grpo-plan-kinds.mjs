// What the demo's reward-model GRPO converges to: re-creates the demo's GRPO reward model (the
// learning curve's share of a finished demo's collection, trained as the demo trains it) from a
// copy of its demo.db, runs rm-reward GRPO from base for each seed with the demo's full sizes, and
// prints each final checkpoint's held-out accuracy and the plan kinds it writes on 100 test tasks
// (one plan each). Optional: GRPO config overrides as JSON (for example '{"klCoefficient":0.04}'),
// a pessimistic reward, the score less k standard deviations of 5 bootstrap heads (--lcb k), the
// pair sources the GRPO model reads (--sources outcome,efficiency: a source is kept when its name
// starts with one of them), and overrides of its training config as JSON (--rm-config '{"l2":0.01}',
// or '{"tune":{"l2":[1e-6,0.001,0.01,0.03,0.1],"learningRate":[0.003]}}' to choose on the share's
// validation pairs; the chosen L2 is printed). --share-kinds prints, per family, how often the
// policy's plans of each kind (node count, answer block) were right on the share's tasks and on the
// whole collection's, before any GRPO run. --share s trains the GRPO model on another share of the
// collection's training tasks than the demo's (the first s of the learning curve's order). --seed s
// reproduces the demo of seed s (its reward-model seed, the learning curve's order, the GRPO
// evaluation seed, and GRPO seeds s to s+9 unless --seeds says otherwise); --demo may also be a
// folder holding a copy of another collection's store as demo.db, such as an active collection's
// (with --share 1: the GRPO model reads all of it). --reward hybrid [--hybrid-fraction p] trains
// with the reward model on every plan and execution on a share p of them (docs/train.md).
//
//   npm run build && node scripts/grpo-plan-kinds.mjs --demo <demo dir> [--seed 0] [--scenario <name|file>] [--seeds 0,1,2] [--config '{}'] [--lcb 1] [--sources outcome] [--rm-config '{}'] [--share-kinds] [--share 0.25]
//
// The demo's own store is never written: the script trains on a copy in a temporary folder.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSimEnvironment, loadScenario } from '../dist/entry-points/sim.js';
import { FULL_SIZES } from '../dist/demo/index.js';
import { DEMO_ENCODER_CANDIDATES } from '../dist/demo/run-demo.js';
import { collectionTokenSplitsByTask, curveShareTasks, curveTaskOrder, loadEvaluationData, parseBtConfig, trainRewardModel, trainStoredRewardModel } from '../dist/rm/index.js';
import { analyzePlan } from '../dist/rm/features/plan-analysis.js';
import { openStore } from '../dist/store/index.js';
import { runGrpo } from '../dist/train/index.js';

const { values } = parseArgs({ options: { demo: { type: 'string' }, scenario: { type: 'string', default: 'default' }, seed: { type: 'string', default: '0' }, seeds: { type: 'string' }, reward: { type: 'string', default: 'rm' }, 'hybrid-fraction': { type: 'string', default: '0.1' }, config: { type: 'string', default: '{}' }, lcb: { type: 'string', default: '0' }, sources: { type: 'string', default: '' }, 'rm-config': { type: 'string', default: '{}' }, 'share-kinds': { type: 'boolean', default: false }, share: { type: 'string' } } });
if (values.demo === undefined || !existsSync(join(values.demo, 'demo.db'))) throw new Error('pass --demo <the --out folder of a finished orchrm demo>');
const sizes = FULL_SIZES;
const demoSeed = Number(values.seed);
const grpoSeeds = values.seeds === undefined ? Array.from({ length: sizes.grpo.seeds }, (_, index) => demoSeed + index) : values.seeds.split(',').map(Number);
const share = values.share === undefined ? sizes.grpo.rewardShare : Number(values.share);
if (!(share > 0 && share <= 1)) throw new Error(`--share must be a number in (0, 1], got ${values.share}`);
const work = mkdtempSync(join(tmpdir(), 'orchrm-grpo-kinds-'));
for (const suffix of ['', '-wal', '-shm']) if (existsSync(join(values.demo, `demo.db${suffix}`))) copyFileSync(join(values.demo, `demo.db${suffix}`), join(work, `demo.db${suffix}`));
const store = openStore(join(work, 'demo.db'));
try {
  const dataset = store.listPairDatasets().find((entry) => entry.kind === 'mined' && entry.config.labelFree === false);
  if (dataset === undefined) throw new Error(`${values.demo}/demo.db has no mined dataset that reads grades`);
  // As the demo: the main model chooses the encoder and settings; the GRPO model reads the curve's share with them.
  const config = parseBtConfig({ seed: demoSeed, maxEpochs: sizes.rmEpochs, encoderCandidates: [...DEMO_ENCODER_CANDIDATES] });
  const { config: chosen, pairs } = await trainStoredRewardModel(store, dataset.id, config, { out: join(work, 'rm.safetensors'), name: 'orchrm-bt-linear' });
  const heldOut = loadEvaluationData(store, { datasetId: dataset.id });
  const shareTasks = curveShareTasks(curveTaskOrder(collectionTokenSplitsByTask(store, dataset.id).keys(), heldOut, demoSeed), share);
  if (values['share-kinds']) {
    // The policy's own plans (not the templates) on every collected task, by family and kind.
    const tally = new Map();
    for (const episode of store.iterateEpisodes()) {
      if (episode.orchestrator.name === 'template' || episode.plan === undefined || episode.grade === undefined) continue;
      const answer = episode.plan.nodes.find((node) => node.id === episode.plan.answer)?.agent ?? 'direct';
      const key = `${episode.task.suite}: ${Math.min(episode.plan.nodes.length, 3)}${episode.plan.nodes.length >= 3 ? '+' : ''} nodes, ends in ${answer}`;
      const entry = tally.get(key) ?? { share: [0, 0], all: [0, 0] };
      for (const [scope, counted] of [['all', true], ['share', shareTasks.has(episode.task.id)]]) if (counted) { entry[scope][0] += 1; entry[scope][1] += episode.grade.correct ? 1 : 0; }
      tally.set(key, entry);
    }
    const rate = ([count, right]) => `${right} of ${count}${count > 0 ? ` (${((100 * right) / count).toFixed(1)}%)` : ''}`;
    for (const [key, entry] of [...tally].sort(([a], [b]) => (a < b ? -1 : 1))) console.log(`${key}: right on ${rate(entry.share)} on the share's tasks, ${rate(entry.all)} on the whole collection's`);
  }
  const lcb = Number(values.lcb);
  const sources = values.sources === '' ? [] : values.sources.split(',');
  const { model: trained, config: grpoConfig } = await trainRewardModel(
    pairs.filter((pair) => shareTasks.has(pair.taskId) && (sources.length === 0 || sources.some((source) => pair.source.startsWith(source)))),
    { ...chosen, tune: false, ensembleSize: lcb > 0 ? 5 : 0, ...JSON.parse(values['rm-config']) },
    { name: `orchrm-bt-grpo-share-${share}` },
  );
  console.log(`GRPO reward model: ${shareTasks.size} tasks (share ${share}), ${sources.length === 0 ? 'every source' : `sources ${sources.join(', ')}`}, L2 ${grpoConfig.l2}`);
  const model =
    lcb === 0
      ? trained
      : {
          name: `${trained.name}-lcb-${lcb}`,
          async score(task, plans, options) {
            const [scores, members] = await Promise.all([trained.score(task, plans, options), trained.scoreMembers(task, plans, options)]);
            return scores.map((score, index) => {
              const heads = members[index];
              const mean = heads.reduce((sum, value) => sum + value, 0) / heads.length;
              return score - lcb * Math.sqrt(heads.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (heads.length - 1));
            });
          },
        };
  const environment = await createSimEnvironment(loadScenario(values.scenario));
  const evaluationTasks = environment.tasks('test', sizes.grpo.evalTasks);
  const overrides = JSON.parse(values.config);
  const accuracies = [];
  const trainingTokens = [];
  let base;
  for (const seed of grpoSeeds) {
    const { steps, tasksPerStep, groupSize, evalInterval } = sizes.grpo;
    const result = await runGrpo(environment, {
      reward: values.reward,
      rewardModel: model,
      executedFraction: Number(values['hybrid-fraction']),
      config: { steps, tasksPerStep, groupSize, evalInterval, seed, name: `grpo-${values.reward}-seed${seed}`, ...overrides },
      trainTaskOffset: sizes.collect.tasks,
      evaluation: { tasks: sizes.grpo.evalTasks, samplesPerTask: sizes.grpo.evalSamples, seed: demoSeed },
    });
    const accuracy = result.evaluations.at(-1).accuracy;
    accuracies.push(accuracy);
    base = result.evaluations[0].accuracy;
    trainingTokens.push(result.history.at(-1).tokens.total);
    const orchestrator = (await environment.withCheckpoints([result.checkpoint])).orchestrator(result.checkpoint.name);
    const kinds = new Map();
    for (const task of evaluationTasks) {
      const { text } = await orchestrator.writePlan(task, { sampleIndex: 0, seed: 7 });
      const shape = analyzePlan(text, environment.blocks).shapeNames.filter((name) => /^(single|final|nodes)=|^plan=(direct|invalid)$/.test(name));
      const kind = `${task.suite}: ${shape.join(', ')}`;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    const top = [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([kind, count]) => `${kind} x${count}`);
    console.log(`seed ${seed}: held-out accuracy ${(accuracy * 100).toFixed(1)}%; plans: ${top.join('; ')}`);
  }
  console.log(`mean ${((accuracies.reduce((sum, value) => sum + value, 0) / accuracies.length) * 100).toFixed(1)}% over ${accuracies.length} seeds`);
  console.log(JSON.stringify({ seeds: grpoSeeds, baseAccuracy: base, accuracies, meanTrainingTokens: trainingTokens.reduce((sum, value) => sum + value, 0) / trainingTokens.length }));
} finally {
  store.close();
  rmSync(work, { recursive: true, force: true });
}
