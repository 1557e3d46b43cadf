import type { Command } from 'commander';
import { z } from 'zod';
import { InvalidUtf8Error, type Pair, readTextFile, UserError } from '../../core/index.js';
import { ablateSources, type BaselineEpochEndEvent, type EncoderChoice, type EncoderSpec, BtConfigSchema, compareExplanations, explainScore, formatExplanationComparison, formatScoreExplanation, DEFAULT_ENCODER_SPEC_TEXT, ENCODER_SPEC_GRAMMAR, type EpochLog, evaluateWithBaselines, formatAblationReport, formatBaselineReport, LinearHeadConfigSchema, loadEvaluationData, loadRewardModel, loadTrainingPairs, MlpHeadConfigSchema, parseBtConfig, parseEncoderSpec, removeBtTrainingState, resolvePairDataset, type StoredRmTrainingEvent, type TrainedRewardModel, trainRewardModel, trainStoredRewardModel, collectionTokensByTask, DEFAULT_CURVE_SHARES, formatLearningCurve, learningCurve, type CalibrationSummary, type CostHeadReport, type TemplateRouterReport, MIN_ROUTER_EPISODES } from '../../rm/index.js';
import { sampleSwitchingLine } from '../../select/index.js';
import { createCliEvents } from '../progress.js';
import { openStore, type Store } from '../../store/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { commandSummary } from '../command-catalog.js';
import { forceFlag, guardOutputs } from '../output-guard.js';
import { embeddingFlags, featureOptionsFromFlags } from './embedding-flags.js';

const btConfig = BtConfigSchema.shape;
const db = z.string().min(1).default('orchrm.db');
const json = (description: string) => z.boolean().default(false).meta({ description });

/** The flags of `orchrm rm train`: the training settings are the config's own fields where the flag sets one as it is. */
const TrainFlagsSchema = z.object({
  db: db.meta({ placeholder: 'path', description: 'SQLite store holding the pairs' }),
  encoder: z.string().min(1).default(DEFAULT_ENCODER_SPEC_TEXT).meta({ placeholder: 'spec', description: `features (${ENCODER_SPEC_GRAMMAR.split('\n')[0]}, see --help)` }),
  encoders: z
    .string()
    .min(1)
    .optional()
    .meta({ placeholder: 'specs', description: "candidate encoders separated by ';' (e.g. 'shape;shape,cross'): each is trained and the one most accurate on the validation split's valid-vs-valid outcome pairs is kept (replaces --encoder)" }),
  head: z.enum([LinearHeadConfigSchema.shape.kind.value, MlpHeadConfigSchema.shape.kind.value]).default('linear').meta({ placeholder: 'kind', description: 'reward head' }),
  dataset: z.string().min(1).optional().meta({ placeholder: 'id', description: 'pair dataset (default: the most recent)' }),
  out: z.string().min(1).optional().meta({ placeholder: 'file', description: 'model file to write (default: rm-<head>.safetensors)' }),
  seed: btConfig.seed,
  maxEpochs: btConfig.maxEpochs,
  tune: z.boolean().default(true).meta({ description: 'train once with L2 1e-6 and learning rate 0.01 instead of choosing L2 and learning rate on the validation split' }),
  templateRouter: z.boolean().default(true).meta({ description: "train no template router, even on a dataset whose episodes ran template plans (bon's template strategies then rank templates by score against a reference)" }),
  ensembleSize: btConfig.ensembleSize,
  resume: z.boolean().default(false).meta({ description: 'continue from the resume state <out>.training.safetensors of an interrupted run' }),
  ...embeddingFlags,
  ...forceFlag,
  json: json('print the training summary as JSON on stdout'),
});

const AblateFlagsSchema = z.object({
  db: db.meta({ placeholder: 'path', description: 'SQLite store holding the pairs and episodes' }),
  dataset: z.string().min(1).optional().meta({ placeholder: 'id', description: 'pair dataset (default: the most recent)' }),
  encoder: z.string().min(1).default(DEFAULT_ENCODER_SPEC_TEXT).meta({ placeholder: 'spec', description: 'features of every model' }),
  seed: btConfig.seed.meta({ description: 'seed of training and bootstraps' }),
  tune: z.boolean().default(true).meta({ description: 'train each model once with the default L2 and learning rate (faster)' }),
  ...embeddingFlags,
  json: json('print the report as JSON on stdout'),
});

const CurveFlagsSchema = z.object({
  db: db.meta({ placeholder: 'path', description: 'SQLite store holding the pairs and the episodes they were mined from' }),
  dataset: z.string().min(1).optional().meta({ placeholder: 'id', description: 'pair dataset to draw the shares from (default: the most recent)' }),
  shares: z.string().default(DEFAULT_CURVE_SHARES.join(',')).meta({ placeholder: 'list', description: 'shares of the training tasks, comma-separated, each in (0, 1]' }),
  n: z.number().int().min(1).default(8).meta({ description: 'candidates per held-out task of Best-of-N' }),
  heldOutDb: z.string().min(1).optional().meta({ placeholder: 'path', description: 'store of the held-out set every point is judged on (default: --db); give the passive collection\'s to put an active one on its curve' }),
  heldOutDataset: z.string().min(1).optional().meta({ placeholder: 'id', description: 'pair dataset whose test split is the held-out set (default: --dataset, or the most recent of --held-out-db)' }),
  collection: z.enum(['passive', 'active']).default('passive').meta({ placeholder: 'kind', description: 'how the collection was made, as the points record it' }),
  seed: btConfig.seed.meta({ description: 'seed of the task order, training and intervals' }),
  tune: z.boolean().default(false).meta({ description: 'tune L2 and learning rate on validation at every point (slower; off by default)' }),
  maxEpochs: btConfig.maxEpochs,
  json: json('print the points as JSON on stdout'),
});

const EvalFlagsSchema = z.object({
  model: z.array(z.string().min(1)).min(1).meta({ placeholder: 'files...', description: "model files written by orchrm rm train (several share the baselines, trained with the first one's config)" }),
  db: db.meta({ placeholder: 'path', description: 'SQLite store holding the pairs and episodes' }),
  dataset: z.string().min(1).optional().meta({ placeholder: 'id', description: 'pair dataset (default: the one the first model was trained on, else the most recent)' }),
  seed: z.number().int().nonnegative().default(0).meta({ description: 'seed of Best-of-N subsets, tie-breaks and bootstraps' }),
  subsets: z.number().int().positive().default(100).meta({ description: 'Best-of-N subsets drawn per task' }),
  ...embeddingFlags,
  json: json('print the full report as JSON on stdout'),
});

const ScoreFlagsSchema = z.object({
  model: z.string().min(1).meta({ placeholder: 'file', description: 'model file written by orchrm rm train' }),
  task: z.string().min(1).meta({ placeholder: 'text|@file', description: 'the task text, or @path of a file holding it' }),
  plans: z.string().min(1).meta({ placeholder: 'file', description: 'plans separated by lines "---", or JSONL of plan texts' }),
  ...embeddingFlags,
  json: json('print the scores as JSON on stdout'),
});

const ExplainFlagsSchema = z.object({
  model: z.string().min(1).meta({ placeholder: 'file', description: 'model file written by orchrm rm train' }),
  plan: z.string().min(1).meta({ placeholder: 'text|@file|id', description: 'the plan: its text, @path of a file holding it, or with --db the id of a stored episode' }),
  against: z.string().min(1).optional().meta({ placeholder: 'text|@file|id', description: 'a second plan (as --plan): show what separates the two scores' }),
  task: z.string().min(1).optional().meta({ placeholder: 'text|@file|id', description: 'the task: its text or @path; with --db a stored task id (default there: the task of the --plan episode)' }),
  db: z.string().min(1).optional().meta({ placeholder: 'path', description: 'SQLite store: --plan and --against name episodes, --task a task' }),
  top: z.number().int().min(1).default(12).meta({ description: 'largest contributions to list' }),
  json: json('print the explanation (and comparison) as JSON on stdout, every feature included'),
});

const trainFlags = optionsFromSchema(TrainFlagsSchema);
const explainFlags = optionsFromSchema(ExplainFlagsSchema);
const ablateFlags = optionsFromSchema(AblateFlagsSchema);
const evalFlags = optionsFromSchema(EvalFlagsSchema);
const curveFlags = optionsFromSchema(CurveFlagsSchema);
const scoreFlags = optionsFromSchema(ScoreFlagsSchema);

function readText(path: string, flag: string): string {
  try {
    return readTextFile(path);
  } catch (error) {
    if (error instanceof InvalidUtf8Error) throw error;
    throw new UserError(`cannot read ${flag} ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); check the path`, { cause: error });
  }
}

/**
 * Plan texts from a `--plans` file: a text file whose plans are separated by lines `---`, or
 * JSONL whose lines are JSON strings (plan texts) or objects with a string `planText`. A file
 * with neither is one plan.
 */
export function readPlansFile(text: string, path = '--plans'): string[] {
  if (text.trim() === '') throw new UserError(`${path} holds no plan; write plans separated by lines "---", or one JSON string per line`);
  const lines = text.split(/\r?\n/);
  if (lines.some((line) => line.trim() === '---')) {
    const plans: string[] = [];
    let current: string[] = [];
    for (const line of [...lines, '---']) {
      if (line.trim() !== '---') {
        current.push(line);
        continue;
      }
      const plan = current.join('\n').trim();
      if (plan !== '') plans.push(plan);
      current = [];
    }
    return plans;
  }
  const plans: string[] = [];
  for (const line of lines.map((item) => item.trim()).filter((item) => item !== '')) {
    const value = parseJsonLine(line);
    if (value === undefined) return [text.trim()];
    if (typeof value === 'string') plans.push(value);
    else if (value !== null && typeof value === 'object' && typeof (value as { planText?: unknown }).planText === 'string') plans.push((value as { planText: string }).planText);
    // Any other JSON line (a one-line JSON plan) is itself a plan text.
    else plans.push(line);
  }
  return plans;
}

function parseJsonLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** `--encoders`: specs separated by `;` (a spec itself separates its items by commas). */
export function parseEncoderCandidates(text: string): EncoderSpec[] {
  const specs = text.split(';').map((item) => item.trim()).filter((item) => item !== '');
  if (specs.length === 0) throw new UserError(`--encoders names no encoder; write specs separated by ';', e.g. 'shape;shape,cross'`);
  return specs.map((spec) => parseEncoderSpec(spec));
}

/** One line per candidate encoder: its validation figures, the kept one marked. */
function formatEncoderChoice(choice: EncoderChoice): string {
  const lines = [`encoder chosen by ${choice.by}${choice.validVsValidPairs > 0 ? ` (${choice.validVsValidPairs} pairs)` : ''}:`];
  for (const candidate of choice.candidates) {
    const accuracy = candidate.validVsValidAccuracy === null ? '' : `valid-vs-valid ${(candidate.validVsValidAccuracy * 100).toFixed(1)}%, `;
    lines.push(`  ${candidate.encoder === choice.chosen ? '*' : ' '} ${candidate.encoder}: ${accuracy}validation loss ${candidate.validationLoss.toFixed(4)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** One epoch's line, without its newline. */
function epochLine(log: EpochLog, label = 'epoch'): string {
  const validation = log.validation ? `, validation loss ${log.validation.loss.toFixed(4)} accuracy ${(log.validation.accuracy * 100).toFixed(1)}%` : '';
  return `${label} ${log.epoch}: train loss ${log.train.loss.toFixed(4)} accuracy ${(log.train.accuracy * 100).toFixed(1)}%${validation} (${log.durationMs.toFixed(0)} ms)`;
}

/**
 * Adds `orchrm rm train|eval|score`: trains a Bradley-Terry reward model on a stored pair
 * dataset, evaluates model files against the plan-only and length-only baselines on held-out
 * tasks, and scores plans for a task.
 */
export function registerRmCommand(program: Command, streams: CommandStreams = processStreams): void {
  const rm = program.command('rm').description(commandSummary('rm'));

  addOptions(
    rm.command('train').description('Train a reward model on the train split of a pair dataset (early stopping on validation) and register it in the store.'),
    trainFlags,
  )
    .addHelpText('after', `\nHyperparameters:\n  By default one model is trained for each L2 in {1e-6, 1e-3} and learning rate in\n  {0.003, 0.03} (early stopping picks each one's epochs), and the one with the lowest validation\n  loss is kept; its choice is recorded in the model file. Without validation pairs nothing can be\n  tuned and the defaults are used. --no-tune trains once with the defaults.\n\nChoosing the encoder:\n  --encoders 'shape;shape,cross' trains a model (tuned as above) with each spec and keeps the\n  one that ranks the validation split's valid-vs-valid outcome pairs best (the first listed wins a\n  tie; test pairs never take part); every candidate's figures are recorded in the model file.\n\nUncertainty:\n  Then --ensemble (default 5) more heads are trained with the chosen hyperparameters, each on a\n  bootstrap resample of the training tasks, and stored in the same file; where they disagree the\n  model has seen too little (bon's rm+templates reads them). They are retrained on --resume.\n\nCost and calibration:\n  On a mined dataset a linear cost head is also trained, on the execution tokens of the\n  episodes of train-split tasks (no grade read), and the score is calibrated into a success\n  probability (Platt scaling on the train split's graded plans; none for a label-free dataset).\n  Both go in the same file (format 3), bon's price and cheapest-within objectives read them, and\n  the calibration error (ECE) on the train and validation splits is printed.\n\nTemplate router:\n  When the dataset's episodes include template plans run by collect --template-share (graded,\n  at least ${MIN_ROUTER_EPISODES} train-split episodes for each of two or more templates), a template router is\n  fitted too: per template, a logistic model of its success over the task's suite, word-problem\n  structure and name popularity, L2 chosen on the validation split, then refitted on the train\n  and validation splits. bon's rm+templates and\n  rm-templates-only then take the template it rates most likely to succeed (when it knows every\n  template of the pool and every suite of the tasks). With a cost head and calibration it also\n  stores the reading gain: per suite and price, what reading the sampled plans is expected to add\n  to the router's priced pick on the training tasks (the model's own estimates, no grade), which\n  bon's rm+templates weighs against the price of reading them. --no-template-router leaves it out.\n\nCrash and resume:\n  After every epoch the full training state (head parameters, Adam moments and step count,\n  best-epoch parameters, history; about 4x the model file) is written atomically to\n  <out>.training.safetensors, and removed once the model is written. After a crash or kill,\n  rerun the same command with --resume: training continues after the last finished epoch and\n  the model is bit-identical to an uninterrupted run with the same seed. The checkpoint must\n  match the pairs and every training flag (else a clear error); without one, --resume starts\n  from scratch.\n\nEncoder spec grammar:\n${ENCODER_SPEC_GRAMMAR}\n\nExample:\n  orchrm rm train --db runs.db --encoder shape,words:1-2@task --head mlp --out rm.safetensors`)
    .action(
      runAction(async (rawFlags: Record<string, unknown>) => {
        const flags = trainFlags.parse(rawFlags);
        const encoderCandidates = flags.encoders === undefined ? undefined : parseEncoderCandidates(flags.encoders);
        const config = parseBtConfig({
          encoder: encoderCandidates?.[0] ?? parseEncoderSpec(flags.encoder),
          ...(encoderCandidates !== undefined && { encoderCandidates }),
          head: { kind: flags.head },
          seed: flags.seed,
          maxEpochs: flags.maxEpochs,
          ensembleSize: flags.ensembleSize,
          ...(!flags.tune && { tune: false as const }),
        });
        const out = flags.out ?? `rm-${flags.head}.safetensors`;
        guardOutputs({ inputs: [{ flag: '--db', path: flags.db }], outputs: [{ flag: flags.out === undefined ? '--out (default rm-<head>.safetensors)' : '--out', path: out }], force: flags.force });
        const store = openStore(flags.db);
        try {
          const dataset = resolvePairDataset(store, flags.dataset);
          const stateFile = `${out}.training.safetensors`;
          const { training, config: chosen, stateFiles, id, encoderChoice, model } = await trainStoredRewardModel(store, dataset.id, config, {
            out,
            name: `orchrm-bt-${flags.head}`,
            stateFile,
            resume: flags.resume,
            templateRouter: flags.templateRouter,
            features: featureOptionsFromFlags(flags),
            events: createCliEvents<StoredRmTrainingEvent>({
              stderr: streams.stderr,
              line: (event) => {
                if (event.type === 'training-pairs-loaded') return `training a ${flags.head} reward model on ${event.pairs} pairs of dataset ${event.datasetId}`;
                if (event.type === 'rm-training-resume') return event.epochsDone === 0 ? `no resume state ${stateFile}; training from scratch` : `resumed after epoch ${event.epochsDone} from ${stateFile}`;
                if (event.type === 'epoch-end') return epochLine(event.log);
                if (event.type === 'tuning-trial-end') return `trial l2 ${event.trial.l2} learning rate ${event.trial.learningRate}: best validation loss ${event.trial.validationLoss.toFixed(4)} at epoch ${event.trial.bestEpoch}`;
                return undefined;
              },
            }).sink,
          });
          for (const file of stateFiles) removeBtTrainingState(file);
          const { cost, calibration, templateRouter } = model.provenance.metrics as { cost?: CostHeadReport; calibration?: CalibrationSummary; templateRouter?: TemplateRouterReport };
          model.close();
          const summary = {
            id,
            path: out,
            datasetId: dataset.id,
            trainPairs: training.trainPairs,
            validationPairs: training.validationPairs,
            bestEpoch: training.bestEpoch,
            stoppedEarly: training.stoppedEarly,
            l2: chosen.l2,
            learningRate: chosen.learningRate,
            last: training.history.at(-1),
            ...(encoderChoice !== undefined && { encoderChoice }),
            ...(cost !== undefined && { cost }),
            ...(calibration !== undefined && { calibration }),
            ...(templateRouter !== undefined && { templateRouter }),
          };
          streams.stdout.write(
            flags.json
              ? `${JSON.stringify(summary, null, 2)}\n`
              : `${encoderChoice === undefined ? '' : formatEncoderChoice(encoderChoice)}wrote ${out} (model ${id}); best epoch ${training.bestEpoch} of ${training.history.length}${training.stoppedEarly ? ', stopped early' : ''}\n${costLines(cost, calibration)}${routerLine(templateRouter)}`,
          );
        } finally {
          store.close();
        }
      }),
    );

  addOptions(
    rm.command('ablate').description('Source ablation: train one reward model on each subset of the pair sources and compare them on held-out valid-vs-valid and valid-vs-invalid outcome pairs.'),
    ablateFlags,
  )
    .addHelpText('after', '\nEvery subset keeps its pairs\' mined weights. The held-out outcome pairs are every correct-over-incorrect\npair of the graded test-split episodes, whatever sources were mined. With 4 sources that is 15 models.\n\nExample:\n  orchrm rm ablate --db runs.db --no-tune')
    .action(
      runAction(async (rawFlags: Record<string, unknown>) => {
        const flags = ablateFlags.parse(rawFlags);
        const store = openStore(flags.db, { readonly: true });
        try {
          const data = loadEvaluationData(store, { ...(flags.dataset !== undefined && { datasetId: flags.dataset }) });
          const pairs = loadTrainingPairs(store, data.datasetId);
          const config = { encoder: parseEncoderSpec(flags.encoder), seed: flags.seed, ...(!flags.tune && { tune: false as const }) };
          const report = await ablateSources(pairs, data, {
            config,
            seed: flags.seed,
            features: featureOptionsFromFlags(flags),
            onSubsetEnd: (row, done, total) => streams.stderr.write(`${done}/${total} ${row.sources.join('+')}: valid-vs-valid ${(row.outcomePairs.validVsValid.accuracy * 100).toFixed(1)}%\n`),
          });
          streams.stdout.write(flags.json ? `${JSON.stringify({ datasetId: data.datasetId, ...report }, null, 2)}\n` : formatAblationReport(report));
        } finally {
          store.close();
        }
      }),
    );

  addOptions(
    rm.command('curve').description('Learning curve: train on growing shares of a collection and judge every point on one held-out set (valid-vs-valid and Best-of-N accuracy, with intervals) against collection tokens.'),
    curveFlags,
  )
    .addHelpText(
      'after',
      [
        '',
        'Spends no model tokens: it trains one model per share (CPU) on pairs already mined. The tokens of a point are those of every',
        'episode of its tasks (orchestrator, execution and verification), read from the store; the held-out tasks\' episodes are not in',
        'any point. A share holds the tasks of every smaller share (a seeded order of the tasks).',
        '',
        'Examples:',
        '  orchrm rm curve --db orchrm-demo/demo.db',
        '  orchrm rm curve --db active.db --collection active --held-out-db orchrm-demo/demo.db --shares 0.25,0.5,1',
      ].join('\n'),
    )
    .action(
      runAction(async (rawFlags: Record<string, unknown>) => {
        const flags = curveFlags.parse(rawFlags);
        const shares = flags.shares.split(',').map((text) => Number(text.trim()));
        if (shares.some((share) => !(share > 0 && share <= 1))) throw new UserError(`--shares must be numbers in (0, 1] separated by commas, got "${flags.shares}"`);
        const store = openStore(flags.db, { readonly: true });
        const heldOutStore = flags.heldOutDb === undefined ? store : openStore(flags.heldOutDb, { readonly: true });
        try {
          const dataset = resolvePairDataset(store, flags.dataset);
          const heldOutDataset = flags.heldOutDataset ?? (flags.heldOutDb === undefined ? dataset.id : undefined);
          const heldOut = loadEvaluationData(heldOutStore, { ...(heldOutDataset !== undefined && { datasetId: heldOutDataset }) });
          const points = await learningCurve(loadTrainingPairs(store, dataset.id), heldOut, collectionTokensByTask(store, dataset.id), {
            collection: flags.collection,
            shares,
            n: flags.n,
            seed: flags.seed,
            config: { seed: flags.seed, maxEpochs: flags.maxEpochs, ...(!flags.tune && { tune: false as const }) },
            onPoint: (point, done, total) => streams.stderr.write(`${done}/${total} share ${point.share}: ${point.tasks} tasks, ${point.pairs} pairs\n`),
          });
          streams.stdout.write(flags.json ? `${JSON.stringify({ datasetId: dataset.id, heldOutDatasetId: heldOut.datasetId, n: flags.n, points }, null, 2)}\n` : formatLearningCurve(points, flags.n));
        } finally {
          if (heldOutStore !== store) heldOutStore.close();
          store.close();
        }
      }),
    );

  addOptions(
    rm.command('eval').description('Evaluate model files on held-out (test-split) tasks next to structure-only, plan-only and length-only baselines trained the same way.'),
    evalFlags,
  )
    .action(
      runAction(async (rawFlags: Record<string, unknown>) => {
        const flags = evalFlags.parse(rawFlags);
        const features = featureOptionsFromFlags(flags);
        const models = await Promise.all(flags.model.map((path) => loadRewardModel(path, { features })));
        const first = models[0] as TrainedRewardModel;
        const trainedOn = typeof first.provenance.metrics?.datasetId === 'string' ? first.provenance.metrics.datasetId : undefined;
        const store = openStore(flags.db, { readonly: true });
        try {
          const data = loadEvaluationData(store, { datasetId: flags.dataset ?? (trainedOn && store.listPairDatasets().some((dataset) => dataset.id === trainedOn) ? trainedOn : undefined) });
          if (trainedOn !== undefined && trainedOn !== data.datasetId) streams.stderr.write(`warning: ${flags.model[0]} was trained on dataset ${trainedOn}, evaluated on ${data.datasetId}; held-out tasks may overlap its training tasks\n`);
          const config = parseBtConfig({ ...first.provenance.trainingConfig, encoder: first.pipeline.spec, head: first.head.config });
          streams.stderr.write(`evaluating ${models.length} model(s) on ${data.pairs.length} held-out pairs and ${data.episodes.length} graded episodes of dataset ${data.datasetId}; training baselines\n`);
          const report = await evaluateWithBaselines(models, data, {
            trainingPairs: loadTrainingPairs(store, data.datasetId),
            config,
            seed: flags.seed,
            subsetsPerTask: flags.subsets,
            features,
            events: createCliEvents<BaselineEpochEndEvent>({ stderr: streams.stderr, line: (event) => epochLine(event.log, `${event.baseline} baseline epoch`) }).sink,
          });
          streams.stdout.write(flags.json ? `${JSON.stringify({ datasetId: data.datasetId, modelFiles: flags.model, ...report }, null, 2)}\n` : formatBaselineReport(report, { title: `dataset ${data.datasetId}` }));
        } finally {
          store.close();
          for (const model of models) model.close();
        }
      }),
    );

  addOptions(rm.command('explain').description("A plan's score taken apart by named feature (exact for the linear head), and with --against what separates two plans."), explainFlags)
    .addHelpText(
      'after',
      '\nExamples:\n  orchrm rm explain --model rm.safetensors --task @task.txt --plan @plan.json --against @other.json\n  orchrm rm explain --model rm.safetensors --db runs.db --plan ep_3f2a9c0d11e4b6a7 --json\n' +
        "\nLinear head: contributions are weight x value and sum with the bias to the score. MLP head: integrated gradients from the empty input in closed form; they sum with the empty input's score to the score, but share interactions out between features.",
    )
    .action(
      runAction(async (rawFlags: Record<string, unknown>) => {
        const flags = explainFlags.parse(rawFlags);
        const inputs = explainInputs(flags);
        const model = await loadRewardModel(flags.model);
        try {
          const explanation = await explainScore(model, inputs.task, inputs.plan);
          if (inputs.against === undefined) {
            streams.stdout.write(flags.json ? `${JSON.stringify(explanation, null, 2)}\n` : formatScoreExplanation(explanation, flags.top));
            return;
          }
          const against = await explainScore(model, inputs.task, inputs.against);
          const comparison = compareExplanations(explanation, against);
          streams.stdout.write(flags.json ? `${JSON.stringify({ plan: explanation, against, comparison }, null, 2)}\n` : formatExplanationComparison(explanation, against, comparison, flags.top));
        } finally {
          model.close();
        }
      }),
    );

  addOptions(rm.command('score').description('Score plans for one task with a model file (higher is better).'), scoreFlags)
    .action(
      runAction(async (rawFlags: Record<string, unknown>) => {
        const flags = scoreFlags.parse(rawFlags);
        const task = flags.task.startsWith('@') ? readText(flags.task.slice(1), '--task').trim() : flags.task;
        const plans = readPlansFile(readText(flags.plans, '--plans'), flags.plans);
        const model = await loadRewardModel(flags.model, { features: featureOptionsFromFlags(flags) });
        try {
          const scores = await model.score(task, plans);
          if (flags.json) streams.stdout.write(`${JSON.stringify({ model: model.name, scores }, null, 2)}\n`);
          else streams.stdout.write(scores.map((score, index) => `${score.toFixed(6).padStart(12)}  plan ${index + 1}: ${firstLine(plans[index] as string)}\n`).join(''));
        } finally {
          model.close();
        }
      }),
    );
}

/** The task and plan texts `rm explain` names: texts or @files, or with --db stored episodes and tasks. */
function explainInputs(flags: z.output<typeof ExplainFlagsSchema>): { task: string; plan: string; against: string | undefined } {
  const text = (value: string, flag: string) => (value.startsWith('@') ? readText(value.slice(1), flag).trim() : value);
  if (flags.db === undefined) {
    if (flags.task === undefined) throw new UserError('rm explain needs --task (the task text or @file), or --db with --plan naming a stored episode');
    return { task: text(flags.task, '--task'), plan: text(flags.plan, '--plan'), against: flags.against === undefined ? undefined : text(flags.against, '--against') };
  }
  const store = openStore(flags.db, { readonly: true });
  try {
    const episode = (id: string, flag: string) => {
      const found = store.getEpisode(id);
      if (found === undefined) throw new UserError(`${flag} ${id}: no such episode in ${flags.db}; give an episode id (orchrm view --db ${flags.db} shows them), or drop --db to pass plan texts`);
      return found;
    };
    const plan = episode(flags.plan, '--plan');
    let task = plan.task.question;
    if (flags.task !== undefined) {
      const row = store.db.prepare<[string], { question: string }>('SELECT question FROM tasks WHERE id = ?').get(flags.task);
      if (row === undefined) throw new UserError(`--task ${flags.task}: no such task in ${flags.db}; give a task id, or leave --task out to use the --plan episode's task`);
      task = row.question;
    }
    return { task, plan: plan.planText, against: flags.against === undefined ? undefined : episode(flags.against, '--against').planText };
  } finally {
    store.close();
  }
}

function firstLine(text: string, maxChars = 60): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > maxChars ? `${line.slice(0, maxChars - 3)}...` : line;
}

/** What `rm train` prints about the template router (nothing for a model without one). */
function routerLine(router: TemplateRouterReport | undefined): string {
  if (router === undefined) return '';
  const fit = router.validationEpisodes === 0 ? `fitted on ${router.trainEpisodes} graded template episodes of the train split (none in validation: L2 1)` : `L2 ${router.l2} chosen by log loss on ${router.validationEpisodes} graded template episodes of the validation split, then fitted on those and the train split's ${router.trainEpisodes}`;
  const gain = router.readingGain;
  const reading =
    gain === undefined
      ? ''
      : `reading gain: on ${gain.suites.map((suite) => `${suite.tasks} ${suite.suite}`).join(', ')} training tasks, what reading the sampled plans is expected to add to the router's priced pick, at ${gain.prices.length} prices from ${gain.prices[0]} to ${gain.prices.at(-1)} per token; under a price bon's rm+templates reads them only where it exceeds their reading's price\n`;
  const switching = router.sampleSwitching === undefined ? '' : `${sampleSwitchingLine(router.sampleSwitching).trimStart()}\n`;
  return `template router: ${router.templates} templates over ${router.facts} task facts, ${fit}; bon's template strategies choose by it\n${reading}${switching}`;
}

/** What `rm train` prints about the cost head and the calibration (nothing for a model without them). */
function costLines(cost: CostHeadReport | undefined, calibration: CalibrationSummary | undefined): string {
  const lines: string[] = [];
  if (cost !== undefined) {
    const fit = cost.validation ?? cost.train;
    lines.push(`cost head: ${cost.trainExamples} executed plans; on the ${cost.validation === undefined ? 'train' : 'validation'} split mean absolute error ${Math.round(fit.meanAbsoluteError)} execution tokens (mean ${Math.round(fit.meanTokens)})`);
  }
  if (calibration !== undefined) {
    const validation = calibration.validation === undefined ? '' : `, validation ECE ${calibration.validation.ece.toFixed(3)} (${calibration.validation.examples} plans)`;
    lines.push(`calibration: Platt slope ${calibration.slope.toFixed(3)} intercept ${calibration.intercept.toFixed(3)}; train ECE ${calibration.train.ece.toFixed(3)} (${calibration.train.examples} graded plans)${validation}`);
  }
  return lines.map((line) => `${line}\n`).join('');
}
