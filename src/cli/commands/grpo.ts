import { Option, type Command } from 'commander';
import { z } from 'zod';
import { InvalidInputError, UserError, zodIssues } from '../../core/errors.js';
import { loadRewardModel } from '../../rm/model-file.js';
import type { Environment } from '../../environment/index.js';
import { createSimEnvironment, loadScenario } from '../../sim/index.js';
import { openStore } from '../../store/index.js';
import { NoTrainablePolicyError, REWARD_KINDS, removeGrpoState, runGrpo, type EvaluationPoint, type GrpoEvent, type GrpoStepLog, type RunGrpoResult } from '../../train/index.js';
import { createCliEvents } from '../progress.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { parseIntegerOption, runAction } from '../run-action.js';
import { commandSummary } from '../command-catalog.js';

const number = (flag: string) => z.coerce.number({ error: `${flag} must be a number` }).finite();

const GrpoFlagsSchema = z.object({
  scenario: z.string().min(1),
  from: z.string().min(1),
  reward: z.enum(REWARD_KINDS),
  rm: z.string().min(1).optional(),
  steps: z.number().int().min(1),
  group: z.number().int().min(2),
  tasksPerStep: z.number().int().min(1),
  trainTasks: z.number().int().min(1).optional(),
  trainOffset: z.number().int().min(0),
  learningRate: number('--learning-rate').positive(),
  innerEpochs: z.number().int().min(1),
  clip: number('--clip').min(0).max(1),
  kl: number('--kl').min(0),
  hybridFraction: number('--hybrid-fraction').min(0).max(1),
  evalInterval: z.number().int().min(0),
  evalTasks: z.number().int().min(0),
  evalSamples: z.number().int().min(1),
  evalSeed: z.number().int(),
  name: z.string().min(1).optional(),
  seed: z.number().int(),
  out: z.string().min(1).optional(),
  db: z.string().min(1).optional(),
  resume: z.boolean(),
  json: z.boolean(),
});

/**
 * `orchrm grpo`: trains the orchestrator of an environment with GRPO and a reward model,
 * execution, a judge, or both; logs tokens by role and held-out accuracy; writes checkpoints.
 * The environment is a scenario's simulation, the one whose orchestrator can be trained today.
 */
export function registerGrpoCommand(program: Command, streams: CommandStreams = processStreams): void {
  program
    .command('grpo')
    .description(commandSummary('grpo'))
    .option('--scenario <name|file>', 'scenario whose train tasks are used (held-out accuracy on its test tasks)', 'default')
    .option('--from <base|file>', 'starting checkpoint: base or a checkpoint file (orchrm sim improve, orchrm grpo --out)', 'base')
    .addOption(new Option('--reward <kind>', 'reward source').choices([...REWARD_KINDS]).makeOptionMandatory())
    .option('--rm <model.safetensors>', 'reward model for --reward rm|hybrid (orchrm rm train --out)')
    .option('--steps <n>', 'GRPO steps', parseIntegerOption('--steps', 1), 20)
    .option('--group <n>', 'G: plans sampled per task', parseIntegerOption('--group', 2), 8)
    .option('--tasks-per-step <n>', 'train tasks per step', parseIntegerOption('--tasks-per-step', 1), 16)
    .option('--train-tasks <n>', 'distinct train tasks cycled through (default: steps x tasks-per-step)', parseIntegerOption('--train-tasks', 1))
    .option('--train-offset <n>', 'leave out the n train tasks `orchrm collect --split train --count n` uses (e.g. the reward model\'s)', parseIntegerOption('--train-offset', 0), 0)
    .option('--learning-rate <x>', 'step size', '0.5')
    .option('--inner-epochs <n>', 'gradient steps per batch (TRL num_iterations)', parseIntegerOption('--inner-epochs', 1), 2)
    .option('--clip <eps>', 'PPO ratio clipping range', '0.2')
    .option('--kl <beta>', 'KL penalty to the starting checkpoint (k3 estimator); 0 = off', '0')
    .option('--hybrid-fraction <p>', 'hybrid: share of plans also executed', '0.1')
    .option('--eval-interval <n>', 'held-out evaluation every n steps (and first and last)', parseIntegerOption('--eval-interval', 0), 5)
    .option('--eval-tasks <n>', 'held-out test tasks; 0 = no evaluation', parseIntegerOption('--eval-tasks', 0), 100)
    .option('--eval-samples <n>', 'sampled plans executed per held-out task', parseIntegerOption('--eval-samples', 1), 4)
    .option('--eval-seed <n>', 'seed of the held-out plans; keep it fixed to compare runs on the same draws', parseIntegerOption('--eval-seed', 0), 0)
    .option('--name <name>', 'name of the trained checkpoint (default grpo-<reward>)')
    .option('--seed <n>', 'seed', parseIntegerOption('--seed', 0), 0)
    .option('--out <file.json>', 'write the final checkpoint here (feed it to orchrm collect --checkpoint)')
    .option('--db <path>', 'write checkpoints to this database (checkpoints table)')
    .option('--resume', 'continue an interrupted run from <out>.grpo-state.json (needs the same flags, --out included)', false)
    .option('--json', 'print the result (config, step history, evaluations) as JSON on stdout', false)
    .addHelpText(
      'after',
      '\nExamples:\n  orchrm grpo --scenario default --from strong.json --reward rm --rm rm.safetensors --steps 30 --out grpo-rm.json\n  orchrm grpo --scenario default --reward execution --steps 30 --db runs.db --json\n\nCrash and resume:\n  With --out, the state after every step (policy, token counters, step log, evaluations) is written\n  atomically to <out>.grpo-state.json and removed once <out> is written. Rerun the same command with\n  --resume to continue after the last finished step; the final checkpoint is identical to an\n  uninterrupted run. A state from other flags is refused; without a state --resume starts from scratch.',
    )
    .action(
      runAction(async (raw: Record<string, unknown>) => {
        const parsed = GrpoFlagsSchema.safeParse(raw);
        if (!parsed.success) throw new InvalidInputError('orchrm grpo flags', zodIssues(parsed.error));
        const flags = parsed.data;
        if (flags.resume && flags.out === undefined) throw new UserError('--resume continues from <out>.grpo-state.json; pass the same --out as the interrupted run');
        const stateFile = flags.out === undefined ? undefined : `${flags.out}.grpo-state.json`;
        const environment: Environment = await createSimEnvironment(loadScenario(flags.scenario));
        const { trainable } = environment;
        if (trainable === undefined) throw new NoTrainablePolicyError(environment.name);
        const from = flags.from === 'base' ? trainable.initialCheckpoint() : await trainable.loadCheckpoint(flags.from);
        const rewardModel = flags.rm === undefined ? undefined : await loadRewardModel(flags.rm);
        const store = flags.db === undefined ? undefined : openStore(flags.db);
        try {
          const result = await runGrpo(environment, {
            from,
            reward: flags.reward,
            ...(rewardModel !== undefined && { rewardModel }),
            executedFraction: flags.hybridFraction,
            config: {
              steps: flags.steps,
              groupSize: flags.group,
              tasksPerStep: flags.tasksPerStep,
              learningRate: flags.learningRate,
              innerEpochs: flags.innerEpochs,
              clipEpsilon: flags.clip,
              klCoefficient: flags.kl,
              evalInterval: flags.evalInterval,
              seed: flags.seed,
              ...(flags.name !== undefined && { name: flags.name }),
            },
            ...(flags.trainTasks !== undefined && { trainTasks: flags.trainTasks }),
            trainTaskOffset: flags.trainOffset,
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
