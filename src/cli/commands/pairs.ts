import { Option, type Command } from 'commander';
import { z } from 'zod';
import { InvalidInputError, InvalidUtf8Error, PairSplitSchema, readTextFile, UserError, zodIssues } from '../../core/index.js';
import {
  exportPairs,
  formatMiningReport,
  formatPairStats,
  importPairs,
  MinedSourceSchema,
  minePairs,
  OpenRlhfKeysSchema,
  PairExportFormatSchema,
  PairExportFormSchema,
  PairMiningConfigSchema,
  pairStats,
  ReliabilityConfigSchema,
  trainingFlags,
  type MinedSource,
  type PairMiningConfigInput,
} from '../../pairs/index.js';
import { openStore } from '../../store/index.js';
import { createCliEvents } from '../progress.js';
import { addOptions, optionsFromSchema, parseIntegerOption } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { commandSummary } from '../command-catalog.js';

const miningConfig = PairMiningConfigSchema.in.shape;
const reliabilityConfig = ReliabilityConfigSchema.shape;

/**
 * The flags of `orchrm pairs mine`. Each setting a flag overrides (on top of the --config file)
 * is the mining config's own field, its rule declared there; unset, the file's or the config's
 * default holds.
 */
const MineFlagsSchema = z.object({
  db: z.string().min(1).default('orchrm.db').meta({ placeholder: 'path', description: 'SQLite store to read and write' }),
  // A comma-separated list, read by parseSources (which says what is wrong with it).
  sources: z.string().optional().meta({ placeholder: 'list', description: `comma-separated sources (${MinedSourceSchema.options.join(',')}); default all, or the config's` }),
  config: z.string().min(1).optional().meta({ placeholder: 'file', description: 'JSON mining config: process signals, thresholds, caps, balance, splits, reliability (docs/pairs.md)' }),
  seed: miningConfig.seed.unwrap().optional().meta({ description: 'seed for splits, sampling and tie-breaks (overrides the config)' }),
  dataset: z.string().min(1).optional().meta({ placeholder: 'id', description: 'dataset id (default: a hash of the configuration)' }),
  run: z.string().min(1).optional().meta({ placeholder: 'id', description: 'only episodes of this run' }),
  labelFree: z.boolean().default(false).meta({ description: 'read no grade anywhere: checkpoint (unconditional) and process pairs only, reliability by agreement' }),
  reliability: reliabilityConfig.method.unwrap().optional().meta({
    placeholder: 'method',
    description: "how each source's reliability (which weights its pairs) is estimated: auto (calibration, or agreement when label-free), agreement, calibration, none",
  }),
  calibrationTasks: reliabilityConfig.calibrationTasks.meta({ description: 'with calibration: read the grades of this many train-split tasks only (default: all graded ones)' }),
  json: z.boolean().default(false).meta({ description: 'print the mining report as JSON on stdout' }),
});
const mineFlags = optionsFromSchema(MineFlagsSchema);

const ExportFlagsSchema = z.object({
  db: z.string().min(1),
  format: PairExportFormatSchema,
  out: z.string().min(1),
  dataset: z.string().min(1).optional(),
  split: PairSplitSchema.optional(),
  source: z.string().min(1).optional(),
  planText: z.enum(['raw', 'canonical']),
  form: PairExportFormSchema,
  margins: z.enum(['auto', 'omit']),
  eosToken: z.string().min(1).optional(),
  layout: z.union([z.string().min(1), z.boolean()]).optional(),
  promptKey: z.string().min(1).optional(),
  chosenKey: z.string().min(1).optional(),
  rejectedKey: z.string().min(1).optional(),
  marginKey: z.string().optional(),
});

function parseFlags<T>(schema: z.ZodType<T>, raw: unknown, command: string): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new InvalidInputError(`orchrm pairs ${command} flags`, zodIssues(parsed.error));
  return parsed.data;
}

/** Reads and validates the `--config` JSON file. */
function readConfigFile(path: string): PairMiningConfigInput {
  let text: string;
  try {
    text = readTextFile(path);
  } catch (error) {
    if (error instanceof InvalidUtf8Error) throw error;
    throw new UserError(`cannot read --config ${path}: ${(error as NodeJS.ErrnoException).code}; pass the path of a JSON file (docs/pairs.md)`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UserError(`--config ${path} is not JSON: ${(error as Error).message}; see docs/pairs.md for the format`);
  }
  const parsed = PairMiningConfigSchema.safeParse(value);
  if (!parsed.success) throw new InvalidInputError(`--config ${path}`, zodIssues(parsed.error), 'see docs/pairs.md for the format');
  return parsed.data;
}

function parseSources(list: string): MinedSource[] {
  const sources = list.split(',').map((source) => source.trim()).filter((source) => source !== '');
  const parsed = z.array(MinedSourceSchema).min(1).safeParse(sources);
  if (!parsed.success) throw new UserError(`--sources must list some of ${MinedSourceSchema.options.join(', ')}, got "${list}"`);
  return parsed.data;
}

/**
 * Adds `orchrm pairs mine|stats|export|import`: mines win-lose pairs from stored episodes
 * without labels, reports them (with label-free sources' agreement with outcome), exports them
 * for TRL / OpenRLHF / the published OrchRM layout, and imports the published layout.
 */
export function registerPairsCommand(program: Command, streams: CommandStreams = processStreams): void {
  const pairs = program.command('pairs').description(commandSummary('pairs'));

  addOptions(pairs.command('mine').description('Mine pairs from the stored episodes into one dataset (replacing a dataset of the same id).'), mineFlags)
    .addHelpText(
      'after',
      '\nLabels:\n  outcome and efficiency pairs read grades; checkpoint and process pairs do not. By default the\n  reliability of each source and process signal is estimated from graded train-split tasks\n  (calibration) and weights its pairs; --label-free mines with no grade read at all.\n\nExamples:\n  orchrm pairs mine --db runs.db --seed 7\n  orchrm pairs mine --db runs.db --label-free --dataset label-free\n  orchrm pairs mine --db runs.db --sources outcome,process --config mining.json',
    )
    .action(
      runAction((rawFlags: Record<string, unknown>) => {
        const flags = mineFlags.parse(rawFlags);
        const config = {
          ...(flags.config !== undefined && readConfigFile(flags.config)),
          ...(flags.sources !== undefined && { sources: parseSources(flags.sources) }),
          ...(flags.seed !== undefined && { seed: flags.seed }),
          ...(flags.labelFree && { labelFree: true }),
        };
        if (flags.reliability !== undefined || flags.calibrationTasks !== undefined) {
          const fromFile = (config as { reliability?: Record<string, unknown> }).reliability ?? {};
          (config as { reliability?: Record<string, unknown> }).reliability = {
            ...fromFile,
            ...(flags.reliability !== undefined && { method: flags.reliability }),
            ...(flags.calibrationTasks !== undefined && { calibrationTasks: flags.calibrationTasks }),
          };
        }
        const store = openStore(flags.db);
        try {
          // A plain stream (tests) has no isTTY, so the progress prints lines instead of redrawing.
          const progress = createCliEvents({ stderr: streams.stderr, bars: { 'reading episodes': { stream: streams.stderr as NodeJS.WriteStream } } });
          const result = minePairs(store, {
            config,
            ...(flags.dataset !== undefined && { datasetId: flags.dataset }),
            ...(flags.run !== undefined && { filter: { runId: flags.run } }),
            events: progress.sink,
          });
          progress.close();
          streams.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : formatMiningReport(result));
        } finally {
          store.close();
        }
      }),
    );

  pairs
    .command('stats')
    .description('Pair counts per source and split, and each label-free source’s agreement with outcome.')
    .option('--db <path>', 'SQLite store to read', 'orchrm.db')
    .option('--dataset <id>', 'only this dataset (default: every pair in the store)')
    .option('--json', 'print the statistics as JSON on stdout', false)
    .action(
      runAction((flags: { db: string; dataset?: string; json: boolean }) => {
        const store = openStore(flags.db, { readonly: true });
        try {
          const stats = pairStats(store, flags.dataset === undefined ? {} : { datasetId: flags.dataset });
          streams.stdout.write(flags.json ? `${JSON.stringify(stats, null, 2)}\n` : formatPairStats(stats));
        } finally {
          store.close();
        }
      }),
    );

  pairs
    .command('export')
    .description('Write pairs as JSONL for a training engine, and a layout file beside it for the remote reward-model clients (docs/pairs.md).')
    .option('--db <path>', 'SQLite store to read', 'orchrm.db')
    .addOption(new Option('--format <format>', 'trl {prompt,chosen,rejected,margin?}; openrlhf (keys configurable); orchrm {input,chosen,rejected,source}').choices(PairExportFormatSchema.options).default('trl'))
    .addOption(
      new Option('--form <form>', 'text: task and plans as strings; messages: [user task, assistant plan] chat messages, for TRL conversational data and OpenRLHF --apply_chat_template')
        .choices(PairExportFormSchema.options)
        .default('text'),
    )
    .option('--out <file>', 'output file, or - for stdout', '-')
    .option('--dataset <id>', 'only this dataset')
    .addOption(new Option('--split <split>', 'only this split').choices(PairSplitSchema.options))
    .option('--source <source>', 'only this source')
    .addOption(new Option('--plan-text <kind>', 'raw plan text, or its canonical rendering').choices(['raw', 'canonical']).default('raw'))
    .addOption(
      new Option('--margins <mode>', 'auto: a margin column on every row (0 where a pair has none) when any pair has a margin, else on none; omit: never')
        .choices(['auto', 'omit'])
        .default('auto'),
    )
    .option('--eos-token <text>', "the trained model's tokenizer.eos_token, recorded in the layout file for clients that must append it (e.g. '<|endoftext|>')")
    .option('--layout <file>', 'where to write the layout file (default <out>.orchrm-layout; none for stdout unless given)')
    .option('--no-layout', 'write no layout file')
    .option('--prompt-key <key>', 'openrlhf text rows: key of the task text (default prompt; pass the same to --data.prompt_key)')
    .option('--chosen-key <key>', 'openrlhf: key of the winning plan (default chosen)')
    .option('--rejected-key <key>', 'openrlhf: key of the losing plan (default rejected)')
    .addOption(new Option('--margin-key <key>').hideHelp())
    .addHelpText(
      'after',
      '\nExamples:\n  orchrm pairs export --db runs.db --format trl --split train --out train.jsonl\n  orchrm pairs export --db runs.db --format openrlhf --form messages --split train --out train.jsonl\n' +
        '\nThe export prints the OpenRLHF flags that read the file as written; its prompt_key defaults to None, which drops the task of text rows.',
    )
    .action(
      runAction(async (rawFlags: unknown) => {
        const flags = parseFlags(ExportFlagsSchema, rawFlags, 'export');
        if (flags.marginKey !== undefined) {
          throw new UserError(
            '--margin-key was removed: OpenRLHF reads margins only from a column named "margin" (its RewardDataset ignores any other name), so rows carry "margin" when the pairs have margins (see --margins)',
          );
        }
        if (flags.format !== 'openrlhf' && (flags.promptKey ?? flags.chosenKey ?? flags.rejectedKey) !== undefined) {
          throw new UserError(`--prompt-key, --chosen-key and --rejected-key apply to --format openrlhf; ${flags.format} rows have fixed keys`);
        }
        if (flags.format === 'openrlhf' && flags.form === 'messages' && flags.promptKey !== undefined) {
          throw new UserError('--prompt-key does not apply to --form messages: OpenRLHF messages rows carry the task inside chosen and rejected; leave OpenRLHF\'s prompt_key unset');
        }
        const keys = OpenRlhfKeysSchema.safeParse({
          ...(flags.promptKey !== undefined && { prompt: flags.promptKey }),
          ...(flags.chosenKey !== undefined && { chosen: flags.chosenKey }),
          ...(flags.rejectedKey !== undefined && { rejected: flags.rejectedKey }),
        });
        if (!keys.success) throw new InvalidInputError('the --prompt-key, --chosen-key and --rejected-key flags', zodIssues(keys.error));
        const filter = {
          ...(flags.dataset !== undefined && { datasetId: flags.dataset }),
          ...(flags.split !== undefined && { split: flags.split }),
          ...(flags.source !== undefined && { source: flags.source }),
        };
        const toStdout = flags.out === '-';
        const layoutPath = typeof flags.layout === 'string' ? flags.layout : flags.layout === false || toStdout ? false : undefined;
        const store = openStore(flags.db, { readonly: true });
        try {
          const { exported, layout, layoutPath: writtenLayout } = await exportPairs(store, toStdout ? streams.stdout : flags.out, {
            format: flags.format,
            form: flags.form,
            filter,
            planText: flags.planText,
            margins: flags.margins,
            openRlhfKeys: keys.data,
            ...(flags.eosToken !== undefined && { eosToken: flags.eosToken }),
            ...(layoutPath !== undefined && { layoutPath }),
          });
          const where = toStdout ? 'stdout' : flags.out;
          const lines = [
            `exported ${exported} pair(s) as ${flags.format} (${flags.form}) to ${where}${layout.keys.margin ? ', with a margin column' : ''}`,
            writtenLayout ? `layout: ${writtenLayout} (pass it as "layout" to createVllmClassifyRewardModel)` : 'layout: not written',
            ...trainingFlags(layout, toStdout ? '<file>' : flags.out).map((line) => `train: ${line}`),
          ];
          streams.stderr.write(`${lines.join('\n')}\n`);
        } catch (error) {
          // The reader closed the pipe (`orchrm pairs export | head`): it has what it wanted, so stop quietly.
          if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
          streams.stdout.on('error', () => undefined);
        } finally {
          store.close();
        }
      }),
    );

  pairs
    .command('import')
    .argument('<file.jsonl>', 'pairs in the published OrchRM layout: {"input", "chosen", "rejected", "source"} per line')
    .description('Import published OrchRM pairs (validated first; all or nothing; source names kept).')
    .option('--db <path>', 'SQLite store to write', 'orchrm.db')
    .option('--dataset <id>', 'dataset id (default imported-<file name>; re-importing replaces it)')
    .addOption(new Option('--split <split>', 'put every pair in this split (default: assigned by question)').choices(PairSplitSchema.options))
    .option('--seed <n>', 'seed of the split assignment', parseIntegerOption('--seed', 0))
    .option('--json', 'print {"datasetId", "imported", "duplicates"} as JSON on stdout', false)
    .addHelpText('after', '\nExample:\n  orchrm pairs import --db rm.db hotpotqa-train.jsonl --split train --dataset hotpotqa')
    .action(
      runAction(async (file: string, flags: { db: string; dataset?: string; split?: z.infer<typeof PairSplitSchema>; seed?: number; json: boolean }) => {
        let store: ReturnType<typeof openStore> | undefined;
        try {
          // The store is opened only once the file is valid: a refused file creates no database.
          const summary = await importPairs(() => (store = openStore(flags.db)), file, {
            ...(flags.dataset !== undefined && { datasetId: flags.dataset }),
            ...(flags.split !== undefined && { split: flags.split }),
            ...(flags.seed !== undefined && { seed: flags.seed }),
          });
          streams.stdout.write(
            flags.json
              ? `${JSON.stringify(summary)}\n`
              : `imported ${summary.imported} pair(s) from ${file} into dataset ${summary.datasetId} of ${flags.db}; ${summary.duplicates} duplicate line(s) skipped\n`,
          );
        } finally {
          store?.close();
        }
      }),
    );
}
