import type { Command } from 'commander';
import { z } from 'zod';
import { baseCheckpoint, createSimEnvironment, improveByExecution, type ImproveEvent, loadCheckpoint, loadScenario, saveCheckpoint } from '../../sim/index.js';
import { createCliEvents } from '../progress.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { forceFlag, guardOutputs } from '../output-guard.js';
import { runAction } from '../run-action.js';
import { simCommand } from './sim.js';

const ImproveFlagsSchema = z.object({
  scenario: z.string().default('default').meta({ placeholder: 'name|file', description: 'scenario whose train tasks are used' }),
  from: z.string().default('base').meta({ placeholder: 'base|file', description: 'starting checkpoint: base or a checkpoint file' }),
  name: z.string().default('strong').meta({ placeholder: 'name', description: 'name of the new checkpoint (its model is sim-orchestrator-<name>)' }),
  out: z.string().meta({ placeholder: 'file.json', description: 'where to write the checkpoint' }),
  rounds: z.number().int().min(1).default(10).meta({ description: 'policy-gradient rounds' }),
  tasksPerRound: z.number().int().min(1).default(64).meta({ description: 'train tasks per round' }),
  samplesPerTask: z.number().int().min(2).default(8).meta({ description: 'plans executed per task' }),
  learningRate: z.number().default(1).meta({ description: 'step size' }),
  seed: z.number().int().min(0).default(0).meta({ description: 'seed' }),
  json: z.boolean().default(false).meta({ description: 'print the round history as JSON on stdout' }),
  ...forceFlag,
});
const improveFlags = optionsFromSchema(ImproveFlagsSchema);

/** `orchrm sim improve`: a stronger simulated orchestrator checkpoint, trained with execution reward. */
export function registerSimImproveCommand(program: Command, streams: CommandStreams = processStreams): void {
  addOptions(
    simCommand(program).command('improve').description('Train a stronger simulated orchestrator checkpoint by executing its plans (REINFORCE on 0.1*ok + 0.9*correct).'),
    improveFlags,
  )
    .addHelpText('after', '\nExample:\n  orchrm sim improve --scenario default --rounds 10 --out strong.json\n  orchrm collect --scenario default --orchestrator sim:strong --checkpoint strong.json --db sim.db')
    .action(
      runAction(async (raw: Record<string, unknown>) => {
        const flags = improveFlags.parse(raw);
        guardOutputs({ inputs: [{ flag: '--from', path: flags.from === 'base' ? undefined : flags.from }, { flag: '--scenario', path: flags.scenario }], outputs: [{ flag: '--out', path: flags.out }], force: flags.force });
        const environment = await createSimEnvironment(loadScenario(flags.scenario));
        const from = flags.from === 'base' ? baseCheckpoint() : await loadCheckpoint(flags.from);
        const result = await improveByExecution(environment, from, {
          name: flags.name,
          rounds: flags.rounds,
          tasksPerRound: flags.tasksPerRound,
          samplesPerTask: flags.samplesPerTask,
          learningRate: flags.learningRate,
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
