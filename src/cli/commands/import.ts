import type { Command } from 'commander';
import { z } from 'zod';
import { importEpisodesJsonl, openStore } from '../../store/index.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { commandSummary } from '../command-catalog.js';
import { refuseInputsAsOutputs } from '../output-guard.js';

const ImportFlagsSchema = z.object({
  db: z.string().default('orchrm.db').meta({ placeholder: 'path', description: 'SQLite store to write' }),
  run: z.string().optional().meta({ placeholder: 'id', description: 'file every imported episode under this run (created when missing)' }),
  keepPrompts: z.boolean().default(false).meta({ description: 'keep the prompt messages the file carries (dropped by default to keep the store small)' }),
  json: z.boolean().default(false).meta({ description: 'print {"imported", "skipped"} as JSON on stdout' }),
});
const importFlags = optionsFromSchema(ImportFlagsSchema);

/**
 * Adds `orchrm import <file.jsonl> --db <path> [--run id] [--keep-prompts] [--json]`: validates
 * every line of an episode JSONL file (an invalid file imports nothing), then writes it in batches
 * so a collect writing the same database goes on; episodes already stored are skipped, so a killed
 * import is finished by running it again. Runs recorded by other frameworks come in the same way.
 */
export function registerImportCommand(program: Command, streams: CommandStreams = processStreams): void {
  addOptions(program.command('import').argument('<file.jsonl>', 'episodes, one JSON object per line (docs/episode-format.md)').description(commandSummary('import')), importFlags)
    .addHelpText('after', '\nExample:\n  orchrm import --db runs.db other-framework-episodes.jsonl --run imported-1')
    .action(
      runAction(async (file: string, raw: Record<string, unknown>) => {
        const flags = importFlags.parse(raw);
        refuseInputsAsOutputs([{ flag: '<file.jsonl>', path: file }], [{ flag: '--db', path: flags.db }]);
        let store: ReturnType<typeof openStore> | undefined;
        try {
          // The store is opened only once the file is valid: a refused file creates no database.
          const open = () => (store = openStore(flags.db, { keepPrompts: flags.keepPrompts }));
          const summary = await importEpisodesJsonl(open, file, { ...(flags.run !== undefined && { runId: flags.run }) });
          streams.stdout.write(
            flags.json
              ? `${JSON.stringify(summary)}\n`
              : `imported ${summary.imported} episode(s) from ${file} into ${flags.db}; skipped ${summary.skipped} already stored\n`,
          );
        } finally {
          store?.close();
        }
      }),
    );
}
