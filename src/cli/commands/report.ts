import type { Command } from 'commander';
import { readResults, renderReport } from '../../report/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { runAction } from '../run-action.js';
import { commandSummary } from '../command-catalog.js';

/**
 * `orchrm report <dir>`: reads and validates `<dir>/results.json` (written by `orchrm demo`),
 * writes the self-contained page `<dir>/report.html`, prints its path.
 */
export function registerReportCommand(program: Command, streams: CommandStreams = processStreams): void {
  program
    .command('report')
    .description(commandSummary('report'))
    .argument('<dir>', 'directory holding results.json (orchrm demo --out)')
    .option('--json', 'print {"path": ...} as JSON on stdout', false)
    .addHelpText('after', '\nExamples:\n  orchrm report demo-out\n  orchrm report demo-out --json')
    .action(
      runAction(async (dir: string, flags: { json: boolean }) => {
        const results = await readResults(dir);
        const { path } = await renderReport(results, { outDir: dir });
        streams.stdout.write(flags.json ? `${JSON.stringify({ path })}\n` : `${path}\n`);
      }),
    );
}
