import type { Command } from 'commander';
import { z } from 'zod';
import { readResults, renderReport } from '../../report/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { commandSummary } from '../command-catalog.js';

const reportFlags = optionsFromSchema(z.object({ json: z.boolean().default(false).meta({ description: 'print {"path": ...} as JSON on stdout' }) }));

/**
 * `orchrm report <dir>`: reads and validates `<dir>/results.json` (written by `orchrm demo`),
 * writes the self-contained page `<dir>/report.html`, prints its path.
 */
export function registerReportCommand(program: Command, streams: CommandStreams = processStreams): void {
  addOptions(program.command('report').description(commandSummary('report')).argument('<dir>', 'directory holding results.json (orchrm demo --out)'), reportFlags)
    .addHelpText('after', '\nExamples:\n  orchrm report demo-out\n  orchrm report demo-out --json')
    .action(
      runAction(async (dir: string, raw: Record<string, unknown>) => {
        const flags = reportFlags.parse(raw);
        const results = await readResults(dir);
        const { path } = await renderReport(results, { outDir: dir });
        streams.stdout.write(flags.json ? `${JSON.stringify({ path })}\n` : `${path}\n`);
      }),
    );
}
