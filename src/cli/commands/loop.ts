import type { Command } from 'commander';
import { runLoop } from '../../demo/index.js';
import { createSimEnvironment, loadScenario } from '../../sim/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { parseIntegerOption } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { commandSummary } from '../command-catalog.js';
import { createCliEvents } from '../progress.js';

interface LoopFlags {
  scenario: string;
  out: string;
  rounds: number;
  tasksPerRound: number;
  testTasks: number;
  seed: number;
  json: boolean;
}

/** `orchrm loop`: the self-improvement loop, round by round, on the controlled environment. */
export function registerLoopCommand(program: Command, streams: CommandStreams = processStreams): void {
  program
    .command('loop')
    .description(commandSummary('loop'))
    .option('--scenario <name|file>', 'simulated scenario', 'default')
    .option('--out <dir>', 'where loop.json goes; a results.json there (orchrm demo) gains the rounds and its report is rewritten', 'orchrm-demo')
    .option('--rounds <k>', 'rounds', parseIntegerOption('--rounds', 1), 3)
    .option('--tasks-per-round <n>', 'new train tasks collected per round', parseIntegerOption('--tasks-per-round', 1), 100)
    .option('--test-tasks <n>', 'held-out tasks for Best-of-8', parseIntegerOption('--test-tasks', 1), 100)
    .option('--seed <n>', 'seed', parseIntegerOption('--seed', 0), 0)
    .option('--json', 'print the rounds as JSON on stdout', false)
    .addHelpText('after', '\nExample:\n  orchrm demo --out demo && orchrm loop --rounds 3 --out demo')
    .action(
      runAction(async (flags: LoopFlags) => {
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
