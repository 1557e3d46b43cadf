import { isAbsolute, relative } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { formatDemoSummary, runDemo } from '../../demo/index.js';
import { createSimEnvironment, loadScenario } from '../../sim/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { guardOutputFolder } from '../output-guard.js';
import { runAction } from '../run-action.js';
import { commandSummary } from '../command-catalog.js';
import { createCliEvents } from '../progress.js';

const DemoFlagsSchema = z.object({
  scenario: z.string().default('default').meta({ placeholder: 'name|file', description: 'simulated scenario (orchrm sim scenarios)' }),
  out: z.string().default('orchrm-demo').meta({ placeholder: 'dir', description: 'where results.json, report.html, rm.safetensors and demo.db go' }),
  seed: z.number().int().min(0).default(0).meta({ description: 'seed of every draw but the tasks, which come from the seed in the scenario' }),
  quick: z.boolean().default(false).meta({ description: 'smaller run (46-67 s measured on 2 shared cores; the full run took 79-266 s)' }),
  json: z.boolean().default(false).meta({ description: 'print results.json on stdout instead of the summary' }),
  force: z.boolean().default(false).meta({ description: 'replace the results of an earlier demo in --out (with npm start: npm start -- --force)' }),
});
const demoFlags = optionsFromSchema(DemoFlagsSchema);

/** What a demo writes into --out (runDemo). */
const DEMO_OUTPUTS = ['results.json', 'report.html', 'rm.safetensors', 'demo.db'];

/** `orchrm demo` (what `npm start` runs): OrchRM's whole story on the controlled environment. */
export function registerDemoCommand(program: Command, streams: CommandStreams = processStreams): void {
  addOptions(program.command('demo').description(commandSummary('demo')), demoFlags).action(
      runAction(async (raw: Record<string, unknown>) => {
        const flags = demoFlags.parse(raw);
        guardOutputFolder(flags.out, DEMO_OUTPUTS, { force: flags.force, earlier: 'an earlier demo', forceHint: ' (with npm start: npm start -- --force)' });
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
            : formatDemoSummary(outcome.results, { results: shownPath(outcome.resultsPath), report: shownPath(outcome.reportPath), model: shownPath(outcome.modelPath) }),
        );
      }),
    );
}

/** A written file's path as the summary prints it: relative to the working folder when inside it (what a newcomer would type), else absolute. */
function shownPath(path: string): string {
  const relativePath = relative(process.cwd(), path);
  return relativePath === '' || relativePath.startsWith('..') || isAbsolute(relativePath) ? path : relativePath;
}
