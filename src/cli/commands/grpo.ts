import type { Command } from 'commander';
import { z } from 'zod';
import { UserError } from '../../core/index.js';
import { loadRewardModel } from '../../rm/index.js';
import type { Environment } from '../../environment/index.js';
import { createSimEnvironment, loadScenario } from '../../sim/index.js';
import { openStore } from '../../store/index.js';
import { GrpoConfigSchema, GrpoEvaluationSchema, NoTrainablePolicyError, removeGrpoState, runGrpo, RunGrpoSettingsSchema, type EvaluationPoint, type GrpoEvent, type GrpoStepLog, type RunGrpoResult } from '../../train/index.js';
import { createCliEvents } from '../progress.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { forceFlag, guardOutputs, refuseInputsAsOutputs } from '../output-guard.js';
import { runAction } from '../run-action.js';
import { commandSummary } from '../command-catalog.js';
import { embeddingFlags, featureOptionsFromFlags } from './embedding-flags.js';

const config = GrpoConfigSchema.shape;
const run = RunGrpoSettingsSchema.shape;
const evaluation = GrpoEvaluationSchema.shape;

/**
 * The flags of `orchrm grpo`: the GRPO settings are the config's own fields, and those of the
 * run around it the run settings' (`RunGrpoSettingsSchema`): help, default and rule declared there.
 */
const GrpoFlagsSchema = z.object({
  scenario: z.string().min(1).default('default').meta({ placeholder: 'name|file', description: 'scenario whose train tasks are used (held-out accuracy on its test tasks)' }),
  from: z.string().min(1).default('base').meta({ placeholder: 'base|file', description: 'starting checkpoint: base or a checkpoint file (orchrm sim improve, orchrm grpo --out)' }),
  reward: run.reward,
  rm: z.string().min(1).optional().meta({ placeholder: 'model.safetensors', description: 'reward model for --reward rm|hybrid (orchrm rm train --out)' }),
  ...embeddingFlags,
  steps: config.steps,
  groupSize: config.groupSize,
  tasksPerStep: config.tasksPerStep,
  trainTasks: run.trainTasks,
  trainTaskOffset: run.trainTaskOffset,
  learningRate: config.learningRate,
  innerEpochs: config.innerEpochs,
  clipEpsilon: config.clipEpsilon,
  klCoefficient: config.klCoefficient,
  executedFraction: run.executedFraction,
  evalInterval: config.evalInterval,
  // The flag also takes 0, for no evaluation at all (the setting's `evaluation: false`).
  evalTasks: z.number().int().min(0).default(evaluation.tasks.def.defaultValue).meta({ description: 'held-out test tasks; 0 = no evaluation' }),
  evalSamples: evaluation.samplesPerTask,
  evalSeed: evaluation.seed,
  // The command's default name says the reward (grpo-<reward>), so the flag has none of its own.
  name: config.name.unwrap().optional().meta({ placeholder: 'name', description: 'name of the trained checkpoint (default grpo-<reward>)' }),
  // The command has always refused negative seeds.
  seed: config.seed.check(z.nonnegative()),
  out: z.string().min(1).optional().meta({ placeholder: 'file.json', description: 'write the final checkpoint here (feed it to orchrm collect --checkpoint)' }),
  db: z.string().min(1).optional().meta({ placeholder: 'path', description: 'write checkpoints to this database (checkpoints table)' }),
  resume: z.boolean().default(false).meta({ description: 'continue an interrupted run from <out>.grpo-state.json (needs the same flags, --out included)' }),
  ...forceFlag,
  json: z.boolean().default(false).meta({ description: 'print the result (config, step history, evaluations) as JSON on stdout' }),
  // Kept only to say why there is none: the orchestrator grpo updates is the simulated one.
  provider: z.string().optional().meta({ placeholder: 'config.json', hidden: true }),
});
const grpoFlags = optionsFromSchema(GrpoFlagsSchema);

/** What grpo and loop say to --provider: they train the simulated orchestrator, the one whose policy orchrm can update. */
export const SIMULATED_ONLY = (command: string): string =>
  `${command} takes no --provider: it trains the simulated orchestrator of a --scenario, the only policy orchrm can update (a served model gives no gradients here). To train a served model with orchrm's reward, run verl or OpenRLHF against orchrm serve (docs/integrations.md); on a real server, collect, pairs, rm train and bon run as written`;

/**
 * `orchrm grpo`: trains the orchestrator of an environment with GRPO and a reward model,
 * execution, a judge, or both; logs tokens by role and held-out accuracy; writes checkpoints.
 * The environment is a scenario's simulation, the one whose orchestrator can be trained today.
 */
export function registerGrpoCommand(program: Command, streams: CommandStreams = processStreams): void {
  addOptions(program.command('grpo').description(commandSummary('grpo')), grpoFlags)
    .addHelpText(
      'after',
      '\nExamples:\n  orchrm grpo --scenario default --from strong.json --reward rm --rm rm.safetensors --steps 30 --out grpo-rm.json\n  orchrm grpo --scenario default --reward execution --steps 30 --db runs.db --json\n\nCrash and resume:\n  With --out, the state after every step (policy, token counters, step log, evaluations) is written\n  atomically to <out>.grpo-state.json and removed once <out> is written. Rerun the same command with\n  --resume to continue after the last finished step; the final checkpoint is identical to an\n  uninterrupted run. A state from other flags is refused; without a state --resume starts from scratch.',
    )
    .action(
      runAction(async (raw: Record<string, unknown>) => {
        const flags = grpoFlags.parse(raw);
        if (flags.provider !== undefined) throw new UserError(SIMULATED_ONLY('grpo'));
        if (flags.resume && flags.out === undefined) throw new UserError('--resume continues from <out>.grpo-state.json; pass the same --out as the interrupted run');
        const inputs = [{ flag: '--from', path: flags.from === 'base' ? undefined : flags.from }, { flag: '--rm', path: flags.rm }, { flag: '--scenario', path: flags.scenario }];
        guardOutputs({ inputs, outputs: [{ flag: '--out', path: flags.out }], force: flags.force });
        refuseInputsAsOutputs(inputs, [{ flag: '--db', path: flags.db }]);
        const stateFile = flags.out === undefined ? undefined : `${flags.out}.grpo-state.json`;
        const environment: Environment = await createSimEnvironment(loadScenario(flags.scenario));
        const { trainable } = environment;
        if (trainable === undefined) throw new NoTrainablePolicyError(environment.name);
        const from = flags.from === 'base' ? trainable.initialCheckpoint() : await trainable.loadCheckpoint(flags.from);
        const rewardModel = flags.rm === undefined ? undefined : await loadRewardModel(flags.rm, { features: featureOptionsFromFlags(flags) });
        const store = flags.db === undefined ? undefined : openStore(flags.db);
        try {
          const result = await runGrpo(environment, {
            from,
            reward: flags.reward,
            ...(rewardModel !== undefined && { rewardModel }),
            executedFraction: flags.executedFraction,
            config: {
              steps: flags.steps,
              groupSize: flags.groupSize,
              tasksPerStep: flags.tasksPerStep,
              learningRate: flags.learningRate,
              innerEpochs: flags.innerEpochs,
              clipEpsilon: flags.clipEpsilon,
              klCoefficient: flags.klCoefficient,
              evalInterval: flags.evalInterval,
              seed: flags.seed,
              ...(flags.name !== undefined && { name: flags.name }),
            },
            ...(flags.trainTasks !== undefined && { trainTasks: flags.trainTasks }),
            trainTaskOffset: flags.trainTaskOffset,
            evaluation: flags.evalTasks === 0 ? false : { tasks: flags.evalTasks, samplesPerTask: flags.evalSamples, seed: flags.evalSeed },
            ...(store !== undefined && { store }),
            ...(flags.out !== undefined && { outFile: flags.out }),
            events: createCliEvents<GrpoEvent>({
              stderr: streams.stderr,
              line: (event) =>
                event.type === 'grpo-step-end'
                  ? formatStep(event.log, flags.steps)
                  : event.stepsDone === 0
                    ? `grpo: no state ${stateFile}; training from scratch`
                    : `grpo: resumed after step ${event.stepsDone} from ${stateFile}`,
            }).sink,
            ...(stateFile !== undefined && { stateFile, resume: flags.resume }),
          });
          if (stateFile !== undefined) removeGrpoState(stateFile);
          const trained = trainable.policy.ref(result.checkpoint);
          streams.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : formatResult(result, { name: trained.checkpoint, step: trained.step }, flags.out));
        } finally {
          store?.close();
          environment.close();
        }
      }),
    );
}

const millions = (tokens: number) => `${(tokens / 1e6).toFixed(2)}M`;
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

function formatStep(log: GrpoStepLog, steps: number): string {
  const { tokens } = log;
  const evaluation = log.evaluation ? `, held-out ${percent(log.evaluation.accuracy)}` : '';
  return `grpo: step ${log.step}/${steps} reward ${log.meanReward.toFixed(3)}, training tokens ${millions(tokens.total)} (orchestrator ${millions(tokens.orchestrator)}, execution ${millions(tokens.execution)}, verification ${millions(tokens.verification)})${evaluation}`;
}

function formatResult(result: RunGrpoResult<unknown>, trained: { name: string; step: number }, out: string | undefined): string {
  const header = 'step  held-out  orchestrator  execution  verification  training total';
  const row = (point: EvaluationPoint) =>
    [
      String(point.step).padStart(4),
      percent(point.accuracy).padStart(8),
      millions(point.trainingTokens.orchestrator).padStart(12),
      millions(point.trainingTokens.execution).padStart(9),
      millions(point.trainingTokens.verification).padStart(12),
      millions(point.trainingTokens.total).padStart(14),
    ].join('  ');
  const lines = [
    `GRPO with ${result.reward} reward from ${result.from.name} (step ${result.from.step}): checkpoint ${trained.name} at step ${trained.step}`,
    ...(result.evaluations.length > 0 ? [header, ...result.evaluations.map(row), `evaluation tokens (not training): ${millions(result.evaluationTokens)}`] : []),
    ...(out !== undefined ? [`wrote ${out}`] : []),
    ...(result.storedCheckpoints.length > 0 ? [`stored checkpoints: ${result.storedCheckpoints.join(', ')}`] : []),
  ];
  return `${lines.join('\n')}\n`;
}
