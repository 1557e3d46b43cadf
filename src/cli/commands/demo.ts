import type { Command } from 'commander';
import { formatDemoSummary, runDemo } from '../../demo/index.js';
import { createSimEnvironment, loadScenario } from '../../sim/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { parseIntegerOption } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { commandSummary } from '../command-catalog.js';
import { createCliEvents } from '../progress.js';

interface DemoFlags {
  scenario: string;
  out: string;
  seed: number;
  quick: boolean;
  json: boolean;
}

/** `orchrm demo` (what `npm start` runs): OrchRM's whole story on the controlled environment. */
export function registerDemoCommand(program: Command, streams: CommandStreams = processStreams): void {
  program
    .command('demo')
    .description(commandSummary('demo'))
    .option('--scenario <name|file>', 'simulated scenario (orchrm sim scenarios)', 'default')
    .option('--out <dir>', 'where results.json, report.html, rm.safetensors and demo.db go', 'orchrm-demo')
    .option('--seed <n>', 'seed of everything', parseIntegerOption('--seed', 0), 0)
    .option('--quick', 'smaller run (46-67 s measured on 2 shared cores; the full run took 79-266 s)', false)
    .option('--json', 'print results.json on stdout instead of the summary', false)
    .action(
      runAction(async (flags: DemoFlags) => {
        const outcome = await runDemo({
          environment: await createSimEnvironment(loadScenario(flags.scenario)),
          outDir: flags.out,
          seed: flags.seed,
          quick: flags.quick,
          events: createCliEvents({ stderr: streams.stderr }).sink,
        });
        streams.stdout.write(
          flags.json
            ? `${JSON.stringify(outcome.results, null, 2)}\n`
            : formatDemoSummary(outcome.results, { results: outcome.resultsPath, report: outcome.reportPath, model: outcome.modelPath }),
        );
      }),
    );
}
