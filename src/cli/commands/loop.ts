import type { Command } from 'commander';
import { z } from 'zod';
import { UserError } from '../../core/index.js';
import { runLoop } from '../../demo/index.js';
import { createSimEnvironment, loadScenario } from '../../sim/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { guardOutputFolder } from '../output-guard.js';
import { SIMULATED_ONLY } from './grpo.js';
import { runAction } from '../run-action.js';
import { commandSummary } from '../command-catalog.js';
import { createCliEvents } from '../progress.js';

const LoopFlagsSchema = z.object({
  scenario: z.string().default('default').meta({ placeholder: 'name|file', description: 'simulated scenario' }),
  out: z.string().default('orchrm-demo').meta({ placeholder: 'dir', description: 'where loop.json goes; a results.json there (orchrm demo) gains the rounds and its report is rewritten' }),
  rounds: z.number().int().min(1).default(3).meta({ placeholder: 'k', description: 'rounds' }),
  tasksPerRound: z.number().int().min(1).default(100).meta({ description: 'new train tasks collected per round' }),
  testTasks: z.number().int().min(1).default(100).meta({ description: 'held-out tasks for Best-of-8' }),
  seed: z.number().int().min(0).default(0).meta({ description: 'seed' }),
  json: z.boolean().default(false).meta({ description: 'print the rounds as JSON on stdout' }),
  force: z.boolean().default(false).meta({ description: 'replace the loop.json and loop.db of an earlier loop in --out' }),
  // Kept only to say why there is none.
  provider: z.string().optional().meta({ placeholder: 'config.json', hidden: true }),
});
const loopFlags = optionsFromSchema(LoopFlagsSchema);

/** `orchrm loop`: the self-improvement loop, round by round, on the controlled environment. */
export function registerLoopCommand(program: Command, streams: CommandStreams = processStreams): void {
  addOptions(program.command('loop').description(commandSummary('loop')), loopFlags)
    .addHelpText('after', '\nExample:\n  orchrm demo --out demo && orchrm loop --rounds 3 --out demo')
    .action(
      runAction(async (raw: Record<string, unknown>) => {
        const flags = loopFlags.parse(raw);
        if (flags.provider !== undefined) throw new UserError(SIMULATED_ONLY('loop'));
        // results.json and report.html of a demo there are meant to gain the rounds; an earlier loop's own files are not replaced silently.
        guardOutputFolder(flags.out, ['loop.json', 'loop.db'], { force: flags.force, earlier: 'an earlier loop' });
        const outcome = await runLoop({
          environment: await createSimEnvironment(loadScenario(flags.scenario)),
          outDir: flags.out,
          rounds: flags.rounds,
          tasksPerRound: flags.tasksPerRound,
          testTasks: flags.testTasks,
          seed: flags.seed,
          events: createCliEvents({ stderr: streams.stderr }).sink,
        });
        if (flags.json) {
          streams.stdout.write(`${JSON.stringify(outcome.rounds, null, 2)}\n`);
          return;
        }
        const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
        streams.stdout.write(
          [
            'round   pairs   pairwise acc   Best-of-8   tokens',
            ...outcome.rounds.map((round) => `${String(round.round).padStart(5)} ${String(round.pairs ?? 0).padStart(7)} ${percent(round.pairAccuracy).padStart(14)} ${percent(round.bonAccuracy).padStart(11)} ${String(round.tokens.total).padStart(10)}`),
            `wrote ${outcome.loopPath}${outcome.reportPath ? ` and updated ${outcome.reportPath}` : ''}`,
            '',
          ].join('\n'),
        );
      }),
    );
}
