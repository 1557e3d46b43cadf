import { Option, type Command } from 'commander';
import { z } from 'zod';
import { InvalidInputError, UserError, zodIssues } from '../../core/errors.js';
import type { Pair } from '../../core/pair.js';
import { ablateSources, evaluateWithBaselines, type BaselineEpochEndEvent, formatAblationReport, formatBaselineReport, loadEvaluationData, loadTrainingPairs, resolvePairDataset } from '../../rm/eval/index.js';
import {
  DEFAULT_ENCODER_SPEC_TEXT,
  ENCODER_SPEC_GRAMMAR,
  loadRewardModel,
  parseBtConfig,
  parseEncoderSpec,
  removeBtTrainingState,
  trainRewardModel,
  trainStoredRewardModel,
  type EpochLog,
  type StoredRmTrainingEvent,
  type TrainedRewardModel,
} from '../../rm/index.js';
import { createCliEvents } from '../progress.js';
import { openStore, type Store } from '../../store/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { parseIntegerOption, runAction } from '../run-action.js';
import { InvalidUtf8Error, readTextFile } from '../../core/read-text-file.js';
import { commandSummary } from '../command-catalog.js';

const TrainFlagsSchema = z.object({
  db: z.string().min(1),
  encoder: z.string().min(1),
  head: z.enum(['linear', 'mlp']),
  dataset: z.string().min(1).optional(),
  out: z.string().min(1).optional(),
  seed: z.number().int().nonnegative(),
  epochs: z.number().int().positive().optional(),
  tune: z.boolean(),
  resume: z.boolean(),
  json: z.boolean(),
});

const AblateFlagsSchema = z.object({
  db: z.string().min(1),
  dataset: z.string().min(1).optional(),
  encoder: z.string().min(1),
  seed: z.number().int().nonnegative(),
  tune: z.boolean(),
  json: z.boolean(),
});

const EvalFlagsSchema = z.object({
  model: z.array(z.string().min(1)).min(1),
  db: z.string().min(1),
  dataset: z.string().min(1).optional(),
  seed: z.number().int().nonnegative(),
  subsets: z.number().int().positive(),
  json: z.boolean(),
});

const ScoreFlagsSchema = z.object({ model: z.string().min(1), task: z.string().min(1), plans: z.string().min(1), json: z.boolean() });

function parseFlags<T>(schema: z.ZodType<T>, raw: unknown, command: string): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new InvalidInputError(`orchrm rm ${command} flags`, zodIssues(parsed.error));
  return parsed.data;
}

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

  rm.command('train')
    .description('Train a reward model on the train split of a pair dataset (early stopping on validation) and register it in the store.')
    .option('--db <path>', 'SQLite store holding the pairs', 'orchrm.db')
    .option('--encoder <spec>', `features (${ENCODER_SPEC_GRAMMAR.split('\n')[0]}, see --help)`, DEFAULT_ENCODER_SPEC_TEXT)
    .addOption(new Option('--head <kind>', 'reward head').choices(['linear', 'mlp']).default('linear'))
    .option('--dataset <id>', 'pair dataset (default: the most recent)')
    .option('--out <file>', 'model file to write (default: rm-<head>.safetensors)')
    .option('--seed <n>', 'seed of minibatch order and initialisation', parseIntegerOption('--seed', 0), 0)
    .option('--epochs <n>', 'most epochs (default 20)', parseIntegerOption('--epochs', 1))
    .option('--no-tune', 'train once with L2 1e-6 and learning rate 0.01 instead of choosing L2 and learning rate on the validation split')
    .option('--resume', 'continue from the training checkpoint <out>.training.safetensors of an interrupted run', false)
    .option('--json', 'print the training summary as JSON on stdout', false)
    .addHelpText('after', `\nHyperparameters:\n  By default one model is trained for each L2 in {1e-6, 1e-3} and learning rate in\n  {0.003, 0.03} (early stopping picks each one's epochs), and the one with the lowest validation\n  loss is kept; its choice is recorded in the model file. Without validation pairs nothing can be\n  tuned and the defaults are used. --no-tune trains once with the defaults.\n\nCrash and resume:\n  After every epoch the full training state (head parameters, Adam moments and step count,\n  best-epoch parameters, history; about 4x the model file) is written atomically to\n  <out>.training.safetensors, and removed once the model is written. After a crash or kill,\n  rerun the same command with --resume: training continues after the last finished epoch and\n  the model is bit-identical to an uninterrupted run with the same seed. The checkpoint must\n  match the pairs and every training flag (else a clear error); without one, --resume starts\n  from scratch.\n\nEncoder spec grammar:\n${ENCODER_SPEC_GRAMMAR}\n\nExample:\n  orchrm rm train --db runs.db --encoder shape,words:1-2@task --head mlp --out rm.safetensors`)
    .action(
      runAction(async (rawFlags: unknown) => {
        const flags = parseFlags(TrainFlagsSchema, rawFlags, 'train');
        const config = parseBtConfig({ encoder: parseEncoderSpec(flags.encoder), head: { kind: flags.head }, seed: flags.seed, ...(flags.epochs && { maxEpochs: flags.epochs }), ...(!flags.tune && { tune: false as const }) });
        const out = flags.out ?? `rm-${flags.head}.safetensors`;
        const store = openStore(flags.db);
        try {
          const dataset = resolvePairDataset(store, flags.dataset);
          const stateFile = `${out}.training.safetensors`;
          const { training, config: chosen, stateFiles, id } = await trainStoredRewardModel(store, dataset.id, config, {
            out,
            name: `orchrm-bt-${flags.head}`,
            stateFile,
            resume: flags.resume,
            events: createCliEvents<StoredRmTrainingEvent>({
              stderr: streams.stderr,
              line: (event) => {
                if (event.type === 'training-pairs-loaded') return `training a ${flags.head} reward model on ${event.pairs} pairs of dataset ${event.datasetId}`;
                if (event.type === 'rm-training-resume') return event.epochsDone === 0 ? `no training checkpoint ${stateFile}; training from scratch` : `resumed after epoch ${event.epochsDone} from ${stateFile}`;
                if (event.type === 'epoch-end') return epochLine(event.log);
                if (event.type === 'tuning-trial-end') return `trial l2 ${event.trial.l2} learning rate ${event.trial.learningRate}: best validation loss ${event.trial.validationLoss.toFixed(4)} at epoch ${event.trial.bestEpoch}`;
                return undefined;
              },
            }).sink,
          });
          for (const file of stateFiles) removeBtTrainingState(file);
          const summary = { id, path: out, datasetId: dataset.id, trainPairs: training.trainPairs, validationPairs: training.validationPairs, bestEpoch: training.bestEpoch, stoppedEarly: training.stoppedEarly, l2: chosen.l2, learningRate: chosen.learningRate, last: training.history.at(-1) };
          streams.stdout.write(flags.json ? `${JSON.stringify(summary, null, 2)}\n` : `wrote ${out} (model ${id}); best epoch ${training.bestEpoch} of ${training.history.length}${training.stoppedEarly ? ', stopped early' : ''}\n`);
        } finally {
          store.close();
        }
      }),
    );

  rm.command('ablate')
    .description('Source ablation: train one reward model on each subset of the pair sources and compare them on held-out valid-vs-valid and valid-vs-invalid outcome pairs.')
    .option('--db <path>', 'SQLite store holding the pairs and episodes', 'orchrm.db')
    .option('--dataset <id>', 'pair dataset (default: the most recent)')
    .option('--encoder <spec>', 'features of every model', DEFAULT_ENCODER_SPEC_TEXT)
    .option('--seed <n>', 'seed of training and bootstraps', parseIntegerOption('--seed', 0), 0)
    .option('--no-tune', 'train each model once with the default L2 and learning rate (faster)')
    .option('--json', 'print the report as JSON on stdout', false)
    .addHelpText('after', '\nEvery subset keeps its pairs\' mined weights. The held-out outcome pairs are every correct-over-incorrect\npair of the graded test-split episodes, whatever sources were mined. With 4 sources that is 15 models.\n\nExample:\n  orchrm rm ablate --db runs.db --no-tune')
    .action(
      runAction(async (rawFlags: unknown) => {
        const flags = parseFlags(AblateFlagsSchema, rawFlags, 'ablate');
        const store = openStore(flags.db, { readonly: true });
        try {
          const data = loadEvaluationData(store, { ...(flags.dataset !== undefined && { datasetId: flags.dataset }) });
          const pairs = loadTrainingPairs(store, data.datasetId);
          const config = { encoder: parseEncoderSpec(flags.encoder), seed: flags.seed, ...(!flags.tune && { tune: false as const }) };
          const report = await ablateSources(pairs, data, {
            config,
            seed: flags.seed,
            onSubsetEnd: (row, done, total) => streams.stderr.write(`${done}/${total} ${row.sources.join('+')}: valid-vs-valid ${(row.outcomePairs.validVsValid.accuracy * 100).toFixed(1)}%\n`),
          });
          streams.stdout.write(flags.json ? `${JSON.stringify({ datasetId: data.datasetId, ...report }, null, 2)}\n` : formatAblationReport(report));
        } finally {
          store.close();
        }
      }),
    );

  rm.command('eval')
    .description('Evaluate model files on held-out (test-split) tasks next to structure-only, plan-only and length-only baselines trained the same way.')
    .requiredOption('--model <files...>', 'model files written by orchrm rm train (several share the baselines, trained with the first one\'s config)')
    .option('--db <path>', 'SQLite store holding the pairs and episodes', 'orchrm.db')
    .option('--dataset <id>', 'pair dataset (default: the one the first model was trained on, else the most recent)')
    .option('--seed <n>', 'seed of Best-of-N subsets, tie-breaks and bootstraps', parseIntegerOption('--seed', 0), 0)
    .option('--subsets <n>', 'Best-of-N subsets drawn per task', parseIntegerOption('--subsets', 1), 100)
    .option('--json', 'print the full report as JSON on stdout', false)
    .action(
      runAction(async (rawFlags: unknown) => {
        const flags = parseFlags(EvalFlagsSchema, rawFlags, 'eval');
        const models = await Promise.all(flags.model.map((path) => loadRewardModel(path)));
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
            events: createCliEvents<BaselineEpochEndEvent>({ stderr: streams.stderr, line: (event) => epochLine(event.log, `${event.baseline} baseline epoch`) }).sink,
          });
          streams.stdout.write(flags.json ? `${JSON.stringify({ datasetId: data.datasetId, modelFiles: flags.model, ...report }, null, 2)}\n` : formatBaselineReport(report, { title: `dataset ${data.datasetId}` }));
        } finally {
          store.close();
          for (const model of models) model.close();
        }
      }),
    );

  rm.command('score')
    .description('Score plans for one task with a model file (higher is better).')
    .requiredOption('--model <file>', 'model file written by orchrm rm train')
    .requiredOption('--task <text|@file>', 'the task text, or @path of a file holding it')
    .requiredOption('--plans <file>', 'plans separated by lines "---", or JSONL of plan texts')
    .option('--json', 'print the scores as JSON on stdout', false)
    .action(
      runAction(async (rawFlags: unknown) => {
        const flags = parseFlags(ScoreFlagsSchema, rawFlags, 'score');
        const task = flags.task.startsWith('@') ? readText(flags.task.slice(1), '--task').trim() : flags.task;
        const plans = readPlansFile(readText(flags.plans, '--plans'), flags.plans);
        const model = await loadRewardModel(flags.model);
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

function firstLine(text: string, maxChars = 60): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > maxChars ? `${line.slice(0, maxChars - 3)}...` : line;
}
