import { Option, type Command } from 'commander';
import { z } from 'zod';
import { EpisodeStatusSchema } from '../../core/episode.js';
import { InvalidInputError, zodIssues } from '../../core/errors.js';
import { exportEpisodesJsonl, openStore } from '../../store/index.js';
import { runAction } from '../run-action.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { commandSummary } from '../command-catalog.js';

const ExportFlagsSchema = z.object({
  db: z.string().min(1),
  format: z.literal('jsonl'),
  out: z.string().min(1),
  run: z.string().min(1).optional(),
  task: z.string().min(1).optional(),
  status: EpisodeStatusSchema.optional(),
});

/**
 * Adds `orchrm export --db <path> --format jsonl [--out file|-] [--run id] [--task id]
 * [--status s]`: writes stored episodes as JSONL (docs/episode-format.md), to stdout by default.
 * The count goes to stderr so stdout stays pure JSONL.
 */
export function registerExportCommand(program: Command, streams: CommandStreams = processStreams): void {
  program
    .command('export')
    .description(commandSummary('export'))
    .option('--db <path>', 'SQLite store to read', 'orchrm.db')
    .addOption(new Option('--format <format>', 'output format').choices(['jsonl']).default('jsonl'))
    .option('--out <file>', 'output file, or - for stdout', '-')
    .option('--run <id>', 'only episodes of this run')
    .option('--task <id>', 'only episodes of this task')
    .addOption(new Option('--status <status>', 'only episodes with this status').choices(EpisodeStatusSchema.options))
    .addHelpText('after', '\nExample:\n  orchrm export --db runs.db --run run_1a2b --out episodes.jsonl')
    .action(
      runAction(async (rawFlags: unknown) => {
        const parsed = ExportFlagsSchema.safeParse(rawFlags);
        if (!parsed.success) throw new InvalidInputError('orchrm export flags', zodIssues(parsed.error));
        const { db, out, run, task, status } = parsed.data;
        const store = openStore(db, { readonly: true });
        try {
          const filter = { ...(run && { runId: run }), ...(task && { taskId: task }), ...(status && { status }) };
          const { exported } = await exportEpisodesJsonl(store, out === '-' ? streams.stdout : out, filter);
          streams.stderr.write(`exported ${exported} episode(s) from ${db} to ${out === '-' ? 'stdout' : out}\n`);
        } catch (error) {
          // The reader closed the pipe (`orchrm export | head`): it has what it wanted, so stop quietly.
          if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
          streams.stdout.on('error', () => undefined);
        } finally {
          store.close();
        }
      }),
    );
}
