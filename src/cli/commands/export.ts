import type { Command } from 'commander';
import { z } from 'zod';
import { EpisodeStatusSchema } from '../../core/index.js';
import { exportEpisodesJsonl, openStore } from '../../store/index.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { commandSummary } from '../command-catalog.js';
import { forceFlag, guardOutputs } from '../output-guard.js';

const ExportFlagsSchema = z.object({
  db: z.string().min(1).default('orchrm.db').meta({ placeholder: 'path', description: 'SQLite store to read' }),
  format: z.enum(['jsonl']).default('jsonl').meta({ placeholder: 'format', description: 'output format' }),
  out: z.string().min(1).default('-').meta({ placeholder: 'file', description: 'output file, or - for stdout' }),
  run: z.string().min(1).optional().meta({ placeholder: 'id', description: 'only episodes of this run' }),
  task: z.string().min(1).optional().meta({ placeholder: 'id', description: 'only episodes of this task' }),
  status: EpisodeStatusSchema.optional().meta({ placeholder: 'status', description: 'only episodes with this status' }),
  ...forceFlag,
});
const exportFlags = optionsFromSchema(ExportFlagsSchema);

/**
 * Adds `orchrm export --db <path> --format jsonl [--out file|-] [--run id] [--task id]
 * [--status s]`: writes stored episodes as JSONL (docs/episode-format.md), to stdout by default.
 * The count goes to stderr so stdout stays pure JSONL.
 */
export function registerExportCommand(program: Command, streams: CommandStreams = processStreams): void {
  addOptions(program.command('export').description(commandSummary('export')), exportFlags)
    .addHelpText('after', '\nExample:\n  orchrm export --db runs.db --run run_1a2b --out episodes.jsonl')
    .action(
      runAction(async (rawFlags: Record<string, unknown>) => {
        const { db, out, run, task, status, force } = exportFlags.parse(rawFlags);
        guardOutputs({ inputs: [{ flag: '--db', path: db }], outputs: [{ flag: '--out', path: out }], force });
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
