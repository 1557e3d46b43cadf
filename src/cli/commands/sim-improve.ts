import type { Command } from 'commander';
import { baseCheckpoint, createSimEnvironment, improveByExecution, type ImproveEvent, loadCheckpoint, loadScenario, saveCheckpoint } from '../../sim/index.js';
import { createCliEvents } from '../progress.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { parseIntegerOption } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { simCommand } from './sim.js';

interface ImproveFlags {
  scenario: string;
  from: string;
  name: string;
  out: string;
  rounds: number;
  tasksPerRound: number;
  samplesPerTask: number;
  learningRate: string;
  seed: number;
  json: boolean;
}

/** `orchrm sim improve`: a stronger simulated orchestrator checkpoint, trained with execution reward. */
export function registerSimImproveCommand(program: Command, streams: CommandStreams = processStreams): void {
  simCommand(program)
    .command('improve')
    .description('Train a stronger simulated orchestrator checkpoint by executing its plans (REINFORCE on 0.1*ok + 0.9*correct).')
    .option('--scenario <name|file>', 'scenario whose train tasks are used', 'default')
    .option('--from <base|file>', 'starting checkpoint: base or a checkpoint file', 'base')
    .option('--name <name>', 'name of the new checkpoint (its model is sim-orchestrator-<name>)', 'strong')
    .requiredOption('--out <file.json>', 'where to write the checkpoint')
    .option('--rounds <n>', 'policy-gradient rounds', parseIntegerOption('--rounds', 1), 10)
    .option('--tasks-per-round <n>', 'train tasks per round', parseIntegerOption('--tasks-per-round', 1), 64)
    .option('--samples-per-task <n>', 'plans executed per task', parseIntegerOption('--samples-per-task', 2), 8)
    .option('--learning-rate <x>', 'step size', '1.0')
    .option('--seed <n>', 'seed', parseIntegerOption('--seed', 0), 0)
    .option('--json', 'print the round history as JSON on stdout', false)
    .addHelpText('after', '\nExample:\n  orchrm sim improve --scenario default --rounds 10 --out strong.json\n  orchrm collect --scenario default --orchestrator sim:strong --checkpoint strong.json --db sim.db')
    .action(
      runAction(async (flags: ImproveFlags) => {
        const learningRate = Number(flags.learningRate);
        const environment = await createSimEnvironment(loadScenario(flags.scenario));
        const from = flags.from === 'base' ? baseCheckpoint() : await loadCheckpoint(flags.from);
        const result = await improveByExecution(environment, from, {
          name: flags.name,
          rounds: flags.rounds,
          tasksPerRound: flags.tasksPerRound,
          samplesPerTask: flags.samplesPerTask,
          learningRate,
          seed: flags.seed,
          events: createCliEvents<ImproveEvent>({
            stderr: streams.stderr,
            line: ({ round, rounds }) => `improve: round ${round.round + 1}/${rounds} mean reward ${round.meanReward.toFixed(3)}, accuracy ${(round.accuracy * 100).toFixed(1)}%`,
          }).sink,
        });
        await saveCheckpoint(result.checkpoint, flags.out);
        streams.stdout.write(
          flags.json
            ? `${JSON.stringify({ checkpoint: flags.out, name: result.checkpoint.name, step: result.checkpoint.step, rounds: result.rounds }, null, 2)}\n`
            : `wrote ${flags.out}: checkpoint ${result.checkpoint.name} at step ${result.checkpoint.step}\n`,
        );
      }),
    );
}
