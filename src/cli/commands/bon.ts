import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { z } from 'zod';
import { UserError } from '../../core/index.js';
import { loadRewardModel, type SampleSwitching, type TrainedRewardModel, trainingMismatch, worldOfRun } from '../../rm/index.js';
import { type BestOfNRun, type BonFrontier, BonConfigSchema, DEFAULT_NS, formatBonTable, formatFrontierLines, loadPlanTemplates, readingGainLine, RANKING_STRATEGIES, sampleSwitchingLine, runStoredBestOfN, STRATEGY_NAMES, summarizeFrontier, TEMPLATE_STRATEGIES, type StrategyName } from '../../select/index.js';
import { openStore } from '../../store/index.js';
import { createCliEvents } from '../progress.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { environmentFromFlags, environmentInputs, PlanFormatFlagSchema, sharedEnvironmentFlags as shared, SplitFlagSchema } from './environment-flags.js';
import { commandSummary } from '../command-catalog.js';
import { refuseInputsAsOutputs } from '../output-guard.js';
import { embeddingFlags, featureOptionsFromFlags } from './embedding-flags.js';

const bonConfig = BonConfigSchema.shape;
/** Scenario tasks when --count is not given. */
const DEFAULT_SCENARIO_TASKS = 200;

/**
 * The flags of `orchrm bon`: where tasks, models and documents come from (as in collect), and
 * the Best-of-N settings, the config's own fields (help, default and rule declared there).
 */
const BonFlagsSchema = z.object({
  tasks: z.string().optional().meta({ placeholder: 'file.jsonl', description: 'tasks with gold answers, one JSON object per line (needs --provider); read as --suite says' }),
  ...shared.taskFile,
  scenario: z.string().optional().meta({ placeholder: 'name|file', description: 'simulated scenario whose tasks and models are used instead (in-process)' }),
  split: SplitFlagSchema.default('test').meta({ placeholder: 'split', description: 'with --scenario: train or test' }),
  count: z.number().int().min(1).optional().meta({ description: `with --scenario: number of tasks (default ${DEFAULT_SCENARIO_TASKS})` }),
  // The old name of --tasks, kept to say so.
  taskFile: z.string().optional().meta({ placeholder: 'file.jsonl', hidden: true }),
  provider: z.string().optional().meta({ placeholder: 'config.json', description: 'OpenAI-compatible provider config (orchestrator, worker and judge slots)' }),
  orchestrator: z.string().optional().meta({ placeholder: 'model', description: "orchestrator model; sim:<checkpoint> is a simulated checkpoint (default: the provider config's orchestrator, else sim:base)" }),
  checkpoint: shared.checkpoint,
  corpus: z.string().optional().meta({ placeholder: 'file.jsonl', description: 'corpus for search blocks, BM25-indexed' }),
  format: PlanFormatFlagSchema.default('json').meta({ placeholder: 'format', description: 'plan format asked for: json or xml' }),
  dom: shared.dom,
  rm: z.string().optional().meta({ placeholder: 'model.safetensors', description: 'trained reward model file (orchrm rm train)' }),
  ...embeddingFlags,
  n: z.number().int().min(1).default(8).meta({ description: 'N: plans sampled per task' }),
  curve: z.boolean().default(false).meta({ description: `also evaluate N in {${DEFAULT_NS.join(', ')}} over the same samples` }),
  strategies: z.string().optional().meta({ placeholder: 'list', description: `comma-separated, from ${STRATEGY_NAMES.join(', ')} (default: all; rm ones need --rm)` }),
  pool: bonConfig.pool,
  templates: z.string().optional().meta({
    placeholder: 'file.json',
    description: 'template plans for --pool sampled+templates: [{"name", "plan"}] (default: the scenario\'s plan kinds, else cot, sc-5, reflexion-3, debate-3x3 and, with a corpus, search)',
  }),
  topK: bonConfig.topK,
  adaptiveMargin: bonConfig.adaptiveMargin,
  templateMargin: bonConfig.templateMargin,
  objective: bonConfig.objective,
  pricePerToken: bonConfig.pricePerToken,
  margin: bonConfig.margin,
  frontier: bonConfig.frontier,
  // The command has always refused negative seeds.
  seed: bonConfig.seed.check(z.nonnegative()),
  concurrency: bonConfig.concurrency,
  db: z.string().default('orchrm.db').meta({ placeholder: 'path', description: 'SQLite store the results are written to' }),
  cache: z.boolean().default(true).meta({ description: 'do not read or write the response cache (remote providers)' }),
  json: z.boolean().default(false).meta({ description: 'print the N table as JSON on stdout' }),
  resume: z.string().optional().meta({ placeholder: 'run-id', description: 'continue this unfinished bon run (running the same command again continues the newest unfinished one by itself)' }),
  stopAfterFailures: z.number().int().min(0).default(5).meta({ description: 'stop starting tasks when this many in a row failed after their retries (0: never)' }),
});
type BonFlags = z.output<typeof BonFlagsSchema>;
const bonFlags = optionsFromSchema(BonFlagsSchema);

/** `orchrm bon`: Best-of-N plan selection against every baseline, with full token accounting (issue 6). */
export function registerBonCommand(program: Command): void {
  addOptions(program.command('bon').description(commandSummary('bon')), bonFlags)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  orchrm bon --scenario default --rm rm.safetensors --n 8 --count 300 --db sim.db',
        '  orchrm bon --tasks aime-2025.jsonl --suite aime --provider vllm.json --rm rm.safetensors --n 8 --db runs.db',
        '  orchrm bon --scenario default --rm rm.safetensors --n 8 --curve --strategies single,rm,majority,oracle --json',
        '  orchrm bon --scenario default --rm rm.safetensors --n 8 --pool sampled+templates --strategies single,first-valid,rm,rm+templates',
        '',
        'With --pool sampled+templates each template runs on every task as a fixed-plan baseline (rows fixed:<name>),',
        'best-fixed is the single template best on these tasks and best-fixed-per-family the best per task suite,',
        'both chosen after the fact on the very tasks they are scored on (the strongest fixed-plan baselines).',
        'With a model whose template router kept its training record, train-best-fixed-per-family runs the template per',
        'suite that did best in the template episodes the model was trained on: the fixed plan a user could choose.',
        '',
        'Cost objectives (a model trained by this orchrm: format 3, with a cost head and a calibration):',
        '  --objective price --price-per-token 0.00001   expected accuracy minus 0.00001 x predicted execution tokens',
        '  --objective cheapest-within --margin 0.02     fewest predicted tokens within 0.02 of the best expected accuracy',
        "  (rm-templates-only with the model's template router: the router's probability and its expected tokens;",
        "  rm+templates then reads only the samples and the router's pick, and under a price only the task where the",
        "  model expects reading the samples to add less than the price of their tokens: docs/select.md)",
        '  --frontier   runs rm+templates at the largest N under a sweep of prices and margins and prints its',
        '               cost-accuracy frontier against every fixed plan (needs --pool sampled+templates); where',
        "               the model's template router chooses, rm-templates-only too, each template priced by the",
        "               execution tokens the router expects it to spend on the task; at the cheapest point that",
        '               matches best-fixed-per-family, the best task-blind mix of fixed plans per family at the',
        '               same tokens, and the point minus the mix (a saving only reading the task can make)',
        '',
        'Each task is committed to --db as soon as its strategies are done: a killed run loses only the tasks in',
        'flight, a task whose requests failed after their retries is left out (exit 1, the others kept), and',
        'running the same command again continues the run. Exit codes: 0 done, 1 some tasks failed, 2 a bad flag or file.',
      ].join('\n'),
    )
    .action(runAction(async (raw: Record<string, unknown>) => bon(bonFlags.parse(raw))));
}

async function bon(flags: BonFlags): Promise<void> {
  if (flags.taskFile !== undefined) throw new UserError(`--task-file is now --tasks, as in collect: orchrm bon --tasks ${flags.taskFile} --suite <suite> ...`);
  if (flags.tasks !== undefined && /^\d+$/.test(flags.tasks) && !existsSync(flags.tasks)) {
    throw new UserError(`--tasks takes a task file (as in collect); for the number of scenario tasks use --count ${flags.tasks}`);
  }
  if (flags.templates !== undefined && flags.pool !== 'sampled+templates') throw new UserError('--templates needs --pool sampled+templates');
  const strategies = chooseStrategies(flags);
  // Files are read before anything is created: a bad template file or model leaves no database behind.
  const templateFile = flags.templates === undefined ? undefined : loadPlanTemplates(flags.templates);
  const rewardModel: TrainedRewardModel | undefined = flags.rm === undefined ? undefined : await loadRewardModel(flags.rm, { features: featureOptionsFromFlags(flags) });
  const orchestrator = flags.orchestrator ?? (flags.provider === undefined || flags.scenario !== undefined ? 'sim:base' : undefined);
  const { taskFile: _taskFile, orchestrator: _orchestrator, embeddingsUrl: _embeddingsUrl, embeddingsApiKeyEnv: _embeddingsApiKeyEnv, ...rest } = flags;
  const needsJudge = strategies.includes('judge') || strategies.includes('plan-judge');
  refuseInputsAsOutputs([...environmentInputs(flags), { flag: '--rm', path: flags.rm }], [{ flag: '--db', path: flags.db }]);
  const setup = await environmentFromFlags({ ...rest, ...(orchestrator !== undefined && { orchestrator }) }, { judge: needsJudge, defaultCount: DEFAULT_SCENARIO_TASKS });
  const { environment } = setup;
  const store = openStore(flags.db);
  try {
    if (rewardModel !== undefined) {
      const mismatch = trainingMismatch(flags.rm!, rewardModel.provenance.trainedOn, worldOfRun({ config: setup.config }));
      if (mismatch !== undefined) process.stderr.write(`orchrm: warning: ${mismatch}\n`);
    }
    const ns = flags.curve ? [...new Set([...DEFAULT_NS, flags.n])] : [flags.n];
    const progress = createCliEvents({ stderr: process.stderr, bars: { bon: {} } });
    const stored = await runStoredBestOfN({
      store,
      environment,
      tasks: setup.tasks,
      orchestrator: setup.orchestrator,
      ...(rewardModel !== undefined && { rewardModel }),
      ...(flags.pool === 'sampled+templates' && { templates: templateFile ?? setup.templates }),
      config: {
        ns,
        strategies,
        pool: flags.pool as 'sampled' | 'sampled+templates',
        topK: flags.topK,
        adaptiveMargin: flags.adaptiveMargin,
        templateMargin: flags.templateMargin,
        objective: flags.objective,
        pricePerToken: flags.pricePerToken,
        margin: flags.margin,
        frontier: flags.frontier,
        seed: flags.seed,
        concurrency: flags.concurrency,
      },
      context: { ...setup.config, rewardModel: flags.rm ?? null },
      ...(flags.resume !== undefined && { resumeRunId: flags.resume }),
      stopAfterRepeatedFailures: flags.stopAfterFailures,
      events: progress.sink,
    });
    progress.close();
    if (stored.continued) process.stderr.write(`orchrm: continued bon run ${stored.runId}: ${stored.skipped} of ${setup.tasks.length} tasks were committed earlier\n`);
    const { recorded, run } = stored;
    if (recorded === undefined) {
      const failed = run.failedTasks ?? [];
      process.stderr.write(
        `orchrm: bon run ${stored.runId}: ${failed.length} of ${setup.tasks.length} tasks failed after their retries${run.notStarted ? ` and ${run.notStarted} were not started (${flags.stopAfterFailures} failures in a row)` : ''}; ` +
          `the first error: ${failed[0]?.message ?? '(none)'}.\n  the ${run.tasks} completed tasks are kept in ${flags.db}; once the server is healthy, run the same command again (or add --resume ${stored.runId}) to finish the run\n`,
      );
      process.exitCode = 1;
      return;
    }
    const table = recorded.curve.find((entry) => entry.n === flags.n)!;
    const frontier = summarizeFrontier(run);
    const routerFrontier = summarizeFrontier(run, 'rm-templates-only');
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ ...table, ...(flags.curve && { curve: recorded.curve }), ...(frontier !== undefined && { frontier }), ...(routerFrontier !== undefined && { routerFrontier }) }, null, 2)}\n`);
      return;
    }
    const tables = flags.curve ? recorded.curve : [table];
    // Under rm+templates' frontier, what it weighed under a price, when the model's router carries it.
    const routerData = rewardModel?.templateRouter?.data;
    const readingGain = routerData?.readingGain === undefined ? undefined : readingGainLine(routerData.readingGain, routerData.sampleSwitching);
    const frontierText = (entry: BonFrontier) => [...formatFrontierLines(entry, frontierTitle(entry), { withFixedPlans: true }), ...(entry.strategy === 'rm+templates' && readingGain !== undefined ? [readingGain] : [])];
    const frontiers = [frontier, routerFrontier].flatMap((entry) => (entry === undefined ? [] : [`\n${frontierText(entry).join('\n')}\n`])).join('');
    process.stdout.write(`${tables.map(formatBonTable).join('\n')}${frontiers}\n${templateChoiceLine(run, run.config.strategies.includes('rm+templates') ? routerData?.sampleSwitching : undefined)}stored as run ${recorded.runId} (result ${recorded.resultId}) in ${flags.db}\n`);
  } finally {
    environment.close();
    store.close();
  }
}

/** The strategies asked for; without --rm the rm ones are dropped from the default list (and refused when named). */
function chooseStrategies(flags: BonFlags): StrategyName[] {
  if (flags.strategies === undefined) {
    const pooled = STRATEGY_NAMES.filter((name) => flags.pool === 'sampled+templates' || !TEMPLATE_STRATEGIES.has(name));
    if (flags.rm !== undefined) return pooled;
    process.stderr.write('orchrm: no --rm given; running the strategies that need no reward model\n');
    return pooled.filter((name) => !RANKING_STRATEGIES.has(name));
  }
  const names = flags.strategies.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(STRATEGY_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new UserError(`--strategies: unknown ${unknown.join(', ')}; choose from ${STRATEGY_NAMES.join(', ')}`);
  const chosen = names as StrategyName[];
  const needRm = chosen.filter((name) => RANKING_STRATEGIES.has(name));
  if (needRm.length > 0 && flags.rm === undefined) throw new UserError(`--strategies ${needRm.join(', ')} need a reward model: pass --rm <model.safetensors> (orchrm rm train)`);
  if (chosen.length === 0) throw new UserError('--strategies is empty; name at least one strategy');
  return chosen;
}

/** The title of a frontier's table in `bon`'s output. */
function frontierTitle(frontier: BonFrontier): string {
  const who = frontier.strategy === 'rm+templates' ? 'rm+templates' : 'rm-templates-only (the template router alone, each template priced by the tokens the router expects on the task)';
  return `${who} cost-accuracy frontier, N = ${frontier.n}, ${frontier.tasks} tasks (accuracy, execution + verification tokens per task; vs best-fixed-per-family in points)`;
}

/** How the template strategies chose their template (nothing when none ran). */
function templateChoiceLine(run: Pick<BestOfNRun, 'templateChoice' | 'templateReferences'>, sampleSwitching: SampleSwitching | undefined): string {
  if (run.templateChoice === 'router') return `template choice: the reward model's template router (it knows every template of the pool and every suite of the tasks)\n${sampleSwitching === undefined ? '' : `${sampleSwitchingLine(sampleSwitching)}\n`}`;
  if (run.templateChoice === 'reference') {
    const references = Object.entries(run.templateReferences ?? {}).map(([suite, name]) => `${suite} ${name}`).join(', ');
    return `template choice: the model's scores against each suite's reference template${references === '' ? '' : ` (${references})`}; the model has no template router that knows every template of the pool and every suite of the tasks\n`;
  }
  return '';
}
