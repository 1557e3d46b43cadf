import type { Command } from 'commander';
import { importEpisodesJsonl, openStore } from '../../store/index.js';
import { runAction } from '../run-action.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { commandSummary } from '../command-catalog.js';

interface ImportFlags {
  db: string;
  run?: string;
  keepPrompts: boolean;
  json: boolean;
}


/**
 * Adds `orchrm import <file.jsonl> --db <path> [--run id] [--keep-prompts] [--json]`: validates
 * every line of an episode JSONL file, then imports it all in one transaction or nothing; episodes
 * already stored are skipped. Runs recorded by other frameworks come in the same way.
 */
export function registerImportCommand(program: Command, streams: CommandStreams = processStreams): void {
  program
    .command('import')
    .argument('<file.jsonl>', 'episodes, one JSON object per line (docs/episode-format.md)')
    .description(commandSummary('import'))
    .option('--db <path>', 'SQLite store to write', 'orchrm.db')
    .option('--run <id>', 'file every imported episode under this run (created when missing)')
    .option('--keep-prompts', 'keep the prompt messages the file carries (dropped by default to keep the store small)', false)
    .option('--json', 'print {"imported", "skipped"} as JSON on stdout', false)
    .addHelpText('after', '\nExample:\n  orchrm import --db runs.db other-framework-episodes.jsonl --run imported-1')
    .action(
      runAction(async (file: string, flags: ImportFlags) => {
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
