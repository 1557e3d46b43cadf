import type { Command } from 'commander';
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
  layoutPathFor,
} from '../../pairs/index.js';
import { openStore } from '../../store/index.js';
import { createCliEvents } from '../progress.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { forceFlag, guardOutputs, refuseInputsAsOutputs } from '../output-guard.js';
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

const StatsFlagsSchema = z.object({
  db: z.string().min(1).default('orchrm.db').meta({ placeholder: 'path', description: 'SQLite store to read' }),
  dataset: z.string().min(1).optional().meta({ placeholder: 'id', description: 'only this dataset (default: every pair in the store)' }),
  json: z.boolean().default(false).meta({ description: 'print the statistics as JSON on stdout' }),
});
const statsFlags = optionsFromSchema(StatsFlagsSchema);

const ExportFlagsSchema = z.object({
  db: z.string().min(1).default('orchrm.db').meta({ placeholder: 'path', description: 'SQLite store to read' }),
  format: PairExportFormatSchema.default('trl').meta({ placeholder: 'format', description: 'trl {prompt,chosen,rejected,margin?}; openrlhf (keys configurable); orchrm {input,chosen,rejected,source}' }),
  form: PairExportFormSchema.default('text').meta({
    placeholder: 'form',
    description: 'text: task and plans as strings; messages: [user task, assistant plan] chat messages, for TRL conversational data and OpenRLHF --apply_chat_template',
  }),
  out: z.string().min(1).default('-').meta({ placeholder: 'file', description: 'output file, or - for stdout' }),
  dataset: z.string().min(1).optional().meta({ placeholder: 'id', description: 'only this dataset' }),
  split: PairSplitSchema.optional().meta({ placeholder: 'split', description: 'only this split' }),
  source: z.string().min(1).optional().meta({ placeholder: 'source', description: 'only this source' }),
  planText: z.enum(['raw', 'canonical']).default('raw').meta({ placeholder: 'kind', description: 'raw plan text, or its canonical rendering' }),
  margins: z.enum(['auto', 'omit']).default('auto').meta({
    placeholder: 'mode',
    description: 'auto: a margin column on every row (0 where a pair has none) when any pair has a margin, else on none; omit: never',
  }),
  eosToken: z.string().min(1).optional().meta({
    placeholder: 'text',
    description: "the trained model's tokenizer.eos_token, recorded in the layout file for clients that must append it (e.g. '<|endoftext|>')",
  }),
  layout: z.union([z.string().min(1), z.literal(false)]).optional().meta({
    placeholder: 'file',
    description: 'where to write the layout file (default <out>.orchrm-layout; none for stdout unless given)',
    negation: 'write no layout file',
  }),
  promptKey: z.string().min(1).optional().meta({ placeholder: 'key', description: 'openrlhf text rows: key of the task text (default prompt; pass the same to --data.prompt_key)' }),
  chosenKey: z.string().min(1).optional().meta({ placeholder: 'key', description: 'openrlhf: key of the winning plan (default chosen)' }),
  rejectedKey: z.string().min(1).optional().meta({ placeholder: 'key', description: 'openrlhf: key of the losing plan (default rejected)' }),
  ...forceFlag,
  // Removed; kept to say why.
  marginKey: z.string().optional().meta({ placeholder: 'key', hidden: true }),
});
const exportFlags = optionsFromSchema(ExportFlagsSchema);

const ImportFlagsSchema = z.object({
  db: z.string().min(1).default('orchrm.db').meta({ placeholder: 'path', description: 'SQLite store to write' }),
  dataset: z.string().min(1).optional().meta({ placeholder: 'id', description: 'dataset id (default imported-<file name>; re-importing replaces it)' }),
  split: PairSplitSchema.optional().meta({ placeholder: 'split', description: 'put every pair in this split (default: assigned by question)' }),
  seed: z.number().int().min(0).optional().meta({ description: 'seed of the split assignment' }),
  json: z.boolean().default(false).meta({ description: 'print {"datasetId", "imported", "duplicates"} as JSON on stdout' }),
});
const importFlags = optionsFromSchema(ImportFlagsSchema);

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

  addOptions(pairs.command('stats').description('Pair counts per source and split, and each label-free source’s agreement with outcome.'), statsFlags).action(
      runAction((raw: Record<string, unknown>) => {
        const flags = statsFlags.parse(raw);
        const store = openStore(flags.db, { readonly: true });
        try {
          const stats = pairStats(store, flags.dataset === undefined ? {} : { datasetId: flags.dataset });
          streams.stdout.write(flags.json ? `${JSON.stringify(stats, null, 2)}\n` : formatPairStats(stats));
        } finally {
          store.close();
        }
      }),
    );

  addOptions(
    pairs.command('export').description('Write pairs as JSONL for a training engine, and a layout file beside it for the remote reward-model clients (docs/pairs.md).'),
    exportFlags,
  )
    .addHelpText(
      'after',
      '\nExamples:\n  orchrm pairs export --db runs.db --format trl --split train --out train.jsonl\n  orchrm pairs export --db runs.db --format openrlhf --form messages --split train --out train.jsonl\n' +
        '\nThe export prints the OpenRLHF flags that read the file as written; its prompt_key defaults to None, which drops the task of text rows.',
    )
    .action(
      runAction(async (rawFlags: Record<string, unknown>) => {
        const flags = exportFlags.parse(rawFlags);
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
        guardOutputs({
          inputs: [{ flag: '--db', path: flags.db }],
          outputs: [
            { flag: '--out', path: flags.out },
            { flag: typeof flags.layout === 'string' ? '--layout' : '--layout (default <out>.orchrm-layout)', path: layoutPath === false ? undefined : (layoutPath ?? layoutPathFor(flags.out)) },
          ],
          force: flags.force,
        });
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

  addOptions(
    pairs
      .command('import')
      .argument('<file.jsonl>', 'pairs in the published OrchRM layout: {"input", "chosen", "rejected", "source"} per line')
      .description('Import published OrchRM pairs (validated first; all or nothing; source names kept).'),
    importFlags,
  )
    .addHelpText('after', '\nExample:\n  orchrm pairs import --db rm.db hotpotqa-train.jsonl --split train --dataset hotpotqa')
    .action(
      runAction(async (file: string, raw: Record<string, unknown>) => {
        const flags = importFlags.parse(raw);
        refuseInputsAsOutputs([{ flag: '<file.jsonl>', path: file }], [{ flag: '--db', path: flags.db }]);
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
