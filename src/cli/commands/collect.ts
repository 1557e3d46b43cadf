import type { Command } from 'commander';
import { z } from 'zod';
import { collectEpisodes, CollectStoppedError, DEFAULT_MAX_SERVER_FAILURE_SHARE, type CollectEvent, type CollectProgress, type CollectResult, type CollectSummary } from '../../collect/index.js';
import { loadPlanTemplates } from '../../select/index.js';
import { fanOutEvents, ignoreEvents, type PlanTemplateLibrary, UserError } from '../../core/index.js';
import { openStore, type Store } from '../../store/index.js';
import { createCliEvents, formatDuration, formatTokens } from '../progress.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { environmentFromFlags, environmentInputs, PlanFormatFlagSchema, sharedEnvironmentFlags as shared, SplitFlagSchema } from './environment-flags.js';
import { commandSummary } from '../command-catalog.js';
import { refuseInputsAsOutputs } from '../output-guard.js';

/** Scenario tasks when --count is not given. */
const DEFAULT_SCENARIO_TASKS = 100;
/** Episodes in flight when there is no provider config to take the number from. */
const DEFAULT_CONCURRENCY = 4;
/** The exit code of a run that stopped or in which every episode failed (2 is a bad flag or file). */
const RUN_FAILED_EXIT_CODE = 1;
/** The shell's code for a process ended by SIGINT. */
const INTERRUPTED_EXIT_CODE = 130;

/**
 * The flags of `orchrm collect`: where tasks, models and documents come from (as in bon), and
 * the collection's own settings.
 */
const CollectFlagsSchema = z.object({
  tasks: z.string().optional().meta({ placeholder: 'file.jsonl', description: 'tasks, one JSON object per line: {"id", "question", "answer"?}' }),
  ...shared.taskFile,
  scenario: z.string().optional().meta({ placeholder: 'name|file', description: 'generate tasks from a simulated scenario instead (see orchrm sim scenarios)' }),
  split: SplitFlagSchema.default('train').meta({ placeholder: 'split', description: 'with --scenario: train or test (disjoint questions)' }),
  count: z.number().int().min(1).optional().meta({ description: `with --scenario: number of tasks (default ${DEFAULT_SCENARIO_TASKS})` }),
  limit: z.number().int().min(1).optional().meta({ description: 'with --tasks: only the first n tasks of the file, in file order (default: every task)' }),
  provider: z.string().optional().meta({ placeholder: 'config.json', description: 'OpenAI-compatible provider config; without it, --scenario simulates the models in-process' }),
  orchestrator: z.string().optional().meta({ placeholder: 'model', description: 'orchestrator model; sim:<checkpoint> is a simulated checkpoint (e.g. sim:base)' }),
  checkpoint: shared.checkpoint,
  plansPerTask: z.number().int().min(1).default(1).meta({ description: 'plans sampled and executed per task' }),
  concurrency: z.number().int().min(1).optional().meta({ description: `episodes executed at once (default: the provider config's "concurrency", else ${DEFAULT_CONCURRENCY})` }),
  db: z.string().default('orchrm.db').meta({ placeholder: 'path', description: 'SQLite store to write' }),
  seed: z.number().int().min(0).default(0).meta({ description: 'run seed; every call seed derives from it' }),
  format: PlanFormatFlagSchema.default('json').meta({ placeholder: 'format', description: 'plan format the orchestrator is asked for: json or xml' }),
  dom: shared.dom,
  corpus: z.string().optional().meta({
    placeholder: 'file.jsonl',
    description: 'corpus ({"id","title","text"} per line) for search blocks, BM25-indexed; without one (or a scenario corpus) the search block is not offered',
  }),
  templateShare: z.number().min(0).max(1).default(0).meta({
    placeholder: 'share',
    description: 'also execute every template plan on this share of the tasks (0 to 1; seeded by task), so a reward model sees their outcomes',
  }),
  templates: z.string().optional().meta({
    placeholder: 'file.json',
    description: 'template plans for --template-share: [{"name", "plan"}] (default: the scenario\'s plan kinds, else cot, sc-5, reflexion-3, debate-3x3 and, with a corpus, search)',
  }),
  tokenBudget: z.number().int().min(1).optional().meta({ description: 'execution tokens one episode may spend' }),
  timeoutMs: z.number().int().min(1).optional().meta({ description: 'wall time one episode may take, in milliseconds' }),
  keepPrompts: z.boolean().default(false).meta({ description: 'store full prompts of every call (responses are always stored)' }),
  cache: z.boolean().default(true).meta({ description: 'do not read or write the response cache' }),
  // Bare, it continues the newest unfinished run.
  resume: z.union([z.string(), z.literal(true)]).optional().meta({ placeholder: 'run-id', description: 'continue a killed or failed run (default: the newest unfinished one); committed samples are not redone' }),
  newRun: z.boolean().default(false).meta({
    description: 'collect again under a new run id even when this database already holds a run with the same tasks, seed, plans per task and orchestrator (by default that run is continued)',
  }),
  maxServerFailures: z.number().min(0).max(1).default(DEFAULT_MAX_SERVER_FAILURE_SHARE).meta({
    placeholder: 'share',
    description: 'exit 1 when more than this share of the episodes ended in a server failure (unreachable, 5xx, 429, timeout) after their retries; they are kept apart and redone by --resume',
  }),
  stopAfterFailures: z.number().int().min(0).default(5).meta({ description: 'stop when this many episodes in a row fail with the same model-call error (0: never)' }),
  activeRounds: z.number().int().min(0).default(0).meta({
    placeholder: 'n',
    description: 'collect actively in n rounds (at least 2; 0: every sampled plan executed): see below for what a round spends',
  }),
  candidatesPerTask: z.number().int().min(2).default(8).meta({ description: 'with --active-rounds: plans written per task after round 1, among which the model chooses' }),
  activePlans: z.number().int().min(0).default(4).meta({
    description: 'with --active-rounds: of those, plans executed per task (4 of 8 beat 2 of 8 on default: docs/rm.md); 0 with --template-choice router: later rounds run templates only',
  }),
  activeTemplates: z.number().int().min(0).default(0).meta({
    placeholder: 'n',
    description: 'with --active-rounds: also execute n template plans per task (--templates, else the scenario\'s plan kinds): a seeded draw in round 1, then the model\'s first choice and those most likely to beat it',
  }),
  templateChoice: z.enum(['heads', 'router']).default('heads').meta({
    placeholder: 'who',
    description: 'with --active-templates: who chooses the templates after round 1: the round model\'s heads, or the template router (round 1 then runs every template; later rounds at most n per task, those the router may still rank first)',
  }),
  activeBudget: z.number().int().min(1).optional().meta({
    placeholder: 'tokens',
    description: 'with --active-rounds: tokens the whole collection may spend (every role, every round): each later round runs only the tasks whose expected tokens still fit, and the collection ends at a round with none',
  }),
  json: z.boolean().default(false).meta({ description: 'print the summary as JSON on stdout' }),
  events: z.boolean().default(false).meta({ description: 'print progress as JSON lines on stdout (collect-start, episode-end, collect-end with the summary) instead of the summary' }),
});
type CollectFlags = z.output<typeof CollectFlagsSchema>;
const collectFlags = optionsFromSchema(CollectFlagsSchema);

export function registerCollectCommand(program: Command): void {
  addOptions(program.command('collect').description(commandSummary('collect')), collectFlags)
    .addHelpText(
      'after',
      [
        '',
        'Provider config fields (docs/tasks.md): type, baseURL, apiKeyEnv, models.{orchestrator,worker,judge},',
        'timeoutMs (per attempt, default 60000), maxRetries (default 2), concurrency (default 8), structuredOutput,',
        'cache.path, and generation.{orchestrator,worker,judge}.{maxTokens,temperature,topP,reasoningEffort}',
        '(default: the orchestrator max_tokens 4096 and temperature 1; a block its own).',
        '',
        'Before anything is spent, the server is asked for its models (GET /v1/models): a server that is down,',
        'a rejected key or a model name it does not serve stops the command with what to fix.',
        'Running the same collection again on the same --db continues it (or says it is complete); Ctrl-C stops',
        'it and prints the command that resumes it. An episode that a server failure ended (unreachable, 5xx, 429,',
        'timeout, after the retries) is stored apart as server_error, never mined, and redone by --resume.',
        'Exit codes: 0 done, 1 the run stopped, every episode failed or more than --max-server-failures of them',
        'ended in a server failure, 2 a bad flag, file or server, 130 interrupted.',
        '',
        'Active collection (--active-rounds n) splits the tasks into n rounds. Round 1 spends what a passive collection',
        'spends on its tasks: --plans-per-task plans written and executed each. Before each later round, a reward model',
        'is trained on the earlier rounds\' pairs (CPU only, no tokens); then per task --candidates-per-task plans are',
        'written (orchestrator tokens only) and --active-plans of them executed (orchestrator, execution and judge tokens):',
        'the plan the model would pick and those its bootstrap heads disagree on most. With --active-templates n, every',
        'round also executes n template plans per task (execution and judge tokens; no plan is written): round 1 a',
        'seeded draw, later rounds the template the model would pick and those its heads give the best chance to beat',
        'it: the outcomes that would change its choice (on default it did not beat passive collection at equal tokens:',
        'docs/rm.md, "Learning curves and active collection"). With --template-choice router, round 1 runs every template',
        'on each task and later rounds at most n per task: the template router\'s first choice, any template it has not',
        'learnt, and those its bootstrap refits say may beat the first (--active-plans 0: no sampled plan after round 1).',
        'With --active-budget, later rounds run only the tasks whose expected tokens fit; the texts of the tasks it never',
        'reaches are stored too (no tokens), and rm train counts names in them. Every plan written is billed in',
        'the store. Use a --db of its own; running the command again continues it (candidates are written again: keep',
        'the response cache on to get them for free).',
        '',
        'Examples:',
        '  orchrm collect --tasks gsm8k-test.jsonl --suite gsm8k --provider vllm.json --plans-per-task 8 --db runs.db --seed 1',
        '  orchrm collect --scenario default --orchestrator sim:base --count 200 --plans-per-task 4 --db sim.db',
        '  orchrm collect --scenario default --orchestrator sim:base --count 600 --plans-per-task 4 --active-rounds 3 --db active.db',
        '  orchrm collect --scenario default --orchestrator sim:base --count 240 --plans-per-task 4 --active-rounds 3 --active-templates 2 --db active-templates.db',
        '  orchrm collect --scenario default --orchestrator sim:base --count 400 --plans-per-task 1 --active-rounds 10 --active-plans 0 --active-templates 4 --template-choice router --active-budget 33000000 --db active-router.db',
      ].join('\n'),
    )
    .action(runAction(async (raw: Record<string, unknown>, command: Command) => collect(collectFlags.parse(raw), commandLine(command))));
}

/** The arguments this command was given, after `orchrm` (for the resume command it prints). */
function commandLine(command: Command): string[] {
  let root = command;
  while (root.parent) root = root.parent;
  // Commander keeps the parsed argv as `rawArgs` (not in its types); process.argv when absent.
  const raw = (root as Command & { rawArgs?: string[] }).rawArgs ?? process.argv;
  // `node main.js collect ...`: drop the runtime and script; keep from the command name on.
  const start = raw.indexOf(command.name());
  return start === -1 ? [command.name()] : raw.slice(start);
}

async function collect(flags: CollectFlags, args: readonly string[]): Promise<void> {
  if (flags.json && flags.events) throw new UserError('--json and --events both write to stdout; choose one');
  if (flags.resume !== undefined && flags.newRun) throw new UserError('--resume continues a run and --new-run starts one; choose one');
  if (flags.templates !== undefined && flags.templateShare === 0 && flags.activeTemplates === 0) throw new UserError('--templates names the plans --template-share (or --active-templates) runs; give --template-share (e.g. 0.25) too');
  if (flags.templateChoice !== 'heads' && flags.activeTemplates === 0) throw new UserError('--template-choice says who chooses the templates of --active-templates; give --active-templates (e.g. 4) and --active-rounds too');
  if (flags.activeBudget !== undefined && flags.activeRounds === 0) throw new UserError('--active-budget bounds the rounds of an active collection; give --active-rounds (e.g. 10) too');
  if (flags.activeTemplates > 0 && flags.activeRounds === 0) throw new UserError('--active-templates chooses templates in the rounds of an active collection; give --active-rounds (e.g. 3) too, or --template-share for a passive one');
  refuseInputsAsOutputs(environmentInputs(flags), [{ flag: '--db', path: flags.db }]);
  if (flags.activeRounds > 0) return collectActivelyFromFlags(flags);
  const setup = await environmentFromFlags(flags, { defaultCount: DEFAULT_SCENARIO_TASKS });
  const { environment } = setup;
  const store = openStore(flags.db, { keepPrompts: flags.keepPrompts });
  const interrupt = new AbortController();
  const onSigint = () => {
    // A second Ctrl-C does not wait for the episodes in flight to be dropped.
    if (interrupt.signal.aborted) process.exit(INTERRUPTED_EXIT_CODE);
    process.stderr.write('\norchrm: interrupted; stopping (press Ctrl-C again to quit at once)\n');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const resumeRunId = flags.resume === undefined ? undefined : resolveResumeRun(store, flags.resume);
    const templates = flags.templateShare > 0 ? { library: flags.templates === undefined ? setup.templates : loadPlanTemplates(flags.templates), share: flags.templateShare } : undefined;
    const concurrency = flags.concurrency ?? setup.providerConfig?.concurrency ?? DEFAULT_CONCURRENCY;
    process.stderr.write(spendEstimate({ tasks: setup.tasks.length, plansPerTask: flags.plansPerTask, templates, store, db: flags.db, baseURL: setup.providerConfig?.baseURL }));
    const progress = createCliEvents({ stderr: process.stderr, bars: { collect: { barEta: false } } });
    const printJsonLine = (event: CollectEvent) => process.stdout.write(`${JSON.stringify(event)}\n`);
    const drawProgress = (event: CollectEvent) => {
      if (event.type === 'collect-waiting') {
        progress.sink({ type: 'log', level: 'warn', source: 'collect', message: `process ${event.holder.pid} on ${event.holder.host} is collecting the same run ${event.runId} into ${flags.db}; waiting for it rather than doing its work again` });
        return;
      }
      if (event.type === 'collect-start' && event.continued && event.done < event.total) {
        progress.sink({ type: 'log', level: 'warn', source: 'collect', message: `continuing run ${event.runId}: ${event.done} of ${event.total} episodes were committed earlier` });
      }
      if (event.type !== 'collect-end') progress.sink({ type: 'progress', stage: 'collect', done: event.done, total: event.total, detail: progressDetail(event) });
    };
    const events = fanOutEvents<CollectEvent>(flags.events ? printJsonLine : ignoreEvents, drawProgress);
    let summary: CollectResult;
    try {
      summary = await collectEpisodes({
        environment,
        tasks: setup.tasks,
        orchestrator: setup.orchestrator,
        store,
        plansPerTask: flags.plansPerTask,
        concurrency,
        seed: flags.seed,
        ...(flags.tokenBudget !== undefined && { tokenBudget: flags.tokenBudget }),
        ...(flags.timeoutMs !== undefined && { timeoutMs: flags.timeoutMs }),
        config: { ...setup.config, keepPrompts: flags.keepPrompts },
        ...(resumeRunId !== undefined && { resumeRunId }),
        sameFingerprint: flags.newRun ? 'new-run' : 'continue',
        stopAfterRepeatedFailures: flags.stopAfterFailures,
        ...(templates !== undefined && { templates }),
        events,
        signal: interrupt.signal,
      });
    } catch (error) {
      progress.close();
      if (!(error instanceof CollectStoppedError)) throw error;
      reportStopped(error, flags, args);
      return;
    }
    progress.close();
    if (summary.continued && summary.skipped === summary.total) {
      process.stderr.write(
        `orchrm: run ${summary.runId} in ${flags.db} already holds all ${summary.total} episodes of this collection (same tasks, --seed, --plans-per-task and orchestrator); nothing was collected. Pass --new-run to collect them again as a separate run.\n`,
      );
    }
    if (!flags.events) process.stdout.write(flags.json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary, flags.db));
    reportServerFailures(summary, flags, args);
    const failed = summary.failures.reduce((sum, failure) => sum + failure.episodes, 0);
    if (summary.episodes > 0 && failed === summary.episodes) {
      process.stderr.write(`orchrm: every episode failed; the most frequent error: ${summary.failures[0]?.message}\n`);
      process.exitCode = RUN_FAILED_EXIT_CODE;
    }
  } finally {
    process.off('SIGINT', onSigint);
    environment.close();
    store.close();
  }
}

/** `collect --active-rounds n`: the rounds of `collectActively`, one summary line each. */
async function collectActivelyFromFlags(flags: CollectFlags): Promise<void> {
  if (flags.activeRounds < 2) throw new UserError(`--active-rounds needs at least 2 rounds (the first is passive), got ${flags.activeRounds}`);
  for (const [set, flag] of [
    [flags.templateShare > 0, '--template-share'],
    [flags.resume !== undefined, '--resume'],
    [flags.newRun, '--new-run'],
    [flags.events, '--events'],
  ] as const) {
    if (set) throw new UserError(`${flag} is not supported with --active-rounds; an active collection continues by running the same command again`);
  }
  // Loaded here: a passive collection never pays for the reward-model code.
  const { collectActively } = await import('../../rm/index.js');
  const setup = await environmentFromFlags(flags, { defaultCount: DEFAULT_SCENARIO_TASKS });
  const store = openStore(flags.db, { keepPrompts: flags.keepPrompts });
  const interrupt = new AbortController();
  const onSigint = () => {
    process.stderr.write('\norchrm: interrupted; run the same command again to continue\n');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const rounds = await collectActively({
      environment: setup.environment,
      tasks: setup.tasks,
      orchestrator: setup.orchestrator,
      store,
      rounds: flags.activeRounds,
      firstRoundPlans: flags.plansPerTask,
      candidatesPerTask: flags.candidatesPerTask,
      plansPerTask: flags.activePlans,
      ...(flags.activeTemplates > 0 && { templates: { library: flags.templates === undefined ? setup.templates : loadPlanTemplates(flags.templates), perTask: flags.activeTemplates, choice: flags.templateChoice } }),
      ...(flags.activeBudget !== undefined && { budget: flags.activeBudget }),
      concurrency: flags.concurrency ?? setup.providerConfig?.concurrency ?? DEFAULT_CONCURRENCY,
      seed: flags.seed,
      config: { ...setup.config, keepPrompts: flags.keepPrompts },
      signal: interrupt.signal,
      events: (event) => {
        if (event.type === 'active-round-end') process.stderr.write(`round ${event.round.round}/${event.rounds}: ${event.round.summary.episodes} episodes on ${event.round.tasks} tasks, ${formatTokens(tokensOf(event.round.summary))} tokens\n`);
      },
    });
    if (flags.json) process.stdout.write(`${JSON.stringify(rounds, null, 2)}\n`);
    else for (const round of rounds) process.stdout.write(`round ${round.round}: ${formatSummary(round.summary, flags.db)}`);
  } catch (error) {
    if (!(error instanceof CollectStoppedError) && !interrupt.signal.aborted) throw error;
    process.stderr.write(`orchrm: stopped: ${error instanceof Error ? error.message : String(error)}; run the same command again to continue\n`);
    process.exitCode = interrupt.signal.aborted ? INTERRUPTED_EXIT_CODE : RUN_FAILED_EXIT_CODE;
  } finally {
    process.off('SIGINT', onSigint);
    setup.environment.close();
    store.close();
  }
}

function tokensOf(summary: CollectSummary): number {
  return summary.tokens.orchestrator.totalTokens + summary.tokens.execution.totalTokens + summary.tokens.verification.totalTokens;
}

/** Earlier episodes read to estimate what one episode costs. */
const ESTIMATE_SAMPLE = 200;

/**
 * What the run will spend, printed before it starts: tasks x plans, the orchestrator calls that
 * follow, and the calls and tokens per episode measured on the episodes already in the database
 * (the plans a model writes decide the sub-agent calls, so nothing better is known before them).
 * On a real server it says so; it asks nothing.
 */
function spendEstimate(run: { tasks: number; plansPerTask: number; templates: { library: PlanTemplateLibrary; share: number } | undefined; store: Store; db: string; baseURL: string | undefined }): string {
  const episodes = run.tasks * run.plansPerTask;
  const templateEpisodes = run.templates === undefined ? 0 : Math.round(run.tasks * run.templates.share) * run.templates.library.names.length;
  const lines = [
    `collect: ${run.tasks.toLocaleString('en-US')} tasks x ${run.plansPerTask} plans = ${episodes.toLocaleString('en-US')} episodes${templateEpisodes > 0 ? `, and about ${templateEpisodes.toLocaleString('en-US')} template episodes` : ''}: ${episodes.toLocaleString('en-US')} orchestrator calls, then the sub-agent calls of each plan`,
  ];
  let sampled = 0;
  let calls = 0;
  let tokens = 0;
  for (const episode of run.store.iterateEpisodes({})) {
    if (sampled === ESTIMATE_SAMPLE) break;
    sampled++;
    calls += (episode.orchestratorCall === undefined ? 0 : 1) + episode.nodes.reduce((sum, node) => sum + node.calls.length, 0);
    tokens += episode.usage.orchestrator.totalTokens + episode.usage.execution.totalTokens + episode.usage.verification.totalTokens;
  }
  const all = episodes + templateEpisodes;
  lines.push(
    sampled === 0
      ? `  per episode: not known before the plans are written (1 sub-agent call for a one-node cot plan, 9 or more for a debate); --limit 2 measures it cheaply first`
      : `  about ${Math.round((calls / sampled) * all).toLocaleString('en-US')} calls and ${formatTokens(Math.round((tokens / sampled) * all))} tokens, at the mean of the first ${sampled} episodes already in ${run.db} (${(calls / sampled).toFixed(1)} calls, ${formatTokens(Math.round(tokens / sampled))} tokens each; other runs' plans may differ); cached responses cost nothing`,
  );
  if (run.baseURL !== undefined) lines.push(`  on ${run.baseURL}: a real server, which may bill these tokens; Ctrl-C stops the run and the same command resumes it`);
  return `${lines.join('\n')}\n`;
}

/** `57.3 episodes/min, eta 4m05s, 1.23M tokens, 2 failed` */
function progressDetail(progress: CollectProgress): string {
  const perMinute = progress.episodesPerSecond * 60;
  const rate = perMinute >= 10 ? perMinute.toFixed(0) : perMinute.toFixed(1);
  const eta = progress.etaMs === null ? 'eta -' : `eta ${formatDuration(progress.etaMs)}`;
  return `${rate} episodes/min, ${eta}, ${formatTokens(progress.tokens)} tokens, ${progress.failed} failed`;
}

/**
 * Episodes a server failure ended are missing from the run until a resume redoes them: say how
 * many and the command that does it; beyond --max-server-failures of the run, exit 1.
 */
function reportServerFailures(summary: CollectSummary, flags: CollectFlags, args: readonly string[]): void {
  const lost = summary.byStatus.server_error ?? 0;
  if (lost === 0) return;
  const share = lost / summary.episodes;
  const tooMany = share > flags.maxServerFailures;
  process.stderr.write(
    `orchrm: ${lost} of ${summary.episodes} episodes (${(share * 100).toFixed(1)}%) of run ${summary.runId} ended in a server failure after their retries` +
      `${tooMany ? `, more than the ${(flags.maxServerFailures * 100).toFixed(1)}% a run may lose (--max-server-failures)` : ''}; ` +
      `they are stored apart (status server_error) and never mined.\n  finish the run on a healthy server with: ${resumeCommand(summary.runId, args)}\n`,
  );
  if (tooMany) process.exitCode = RUN_FAILED_EXIT_CODE;
}

/** What a stopped run prints: the summary so far, why it stopped, and the command that continues it. */
function reportStopped(error: CollectStoppedError, flags: CollectFlags, args: readonly string[]): void {
  if (!flags.events) process.stdout.write(flags.json ? `${JSON.stringify({ ...error.summary, stopped: { reason: error.reason, message: error.message } }, null, 2)}\n` : formatSummary(error.summary, flags.db));
  const resume = resumeCommand(error.runId, args);
  if (error.reason === 'aborted') {
    process.stderr.write(`orchrm: interrupted: run ${error.runId} holds ${error.summary.episodes} of ${error.summary.total} episodes in ${flags.db}; the ones in flight were dropped and will be redone.\n  resume with: ${resume}\n`);
    process.exitCode = INTERRUPTED_EXIT_CODE;
    return;
  }
  process.stderr.write(`orchrm: ${error.message}\n  fix that, then resume with: ${resume}\n`);
  process.exitCode = RUN_FAILED_EXIT_CODE;
}

/** This invocation's command line with `--resume <run-id>` in place of any --resume or --new-run. */
function resumeCommand(runId: string, args: readonly string[]): string {
  const kept: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--new-run' || arg.startsWith('--resume=')) continue;
    if (arg === '--resume') {
      if (args[index + 1] !== undefined && !args[index + 1]!.startsWith('--')) index++;
      continue;
    }
    kept.push(arg);
  }
  return ['npx', 'orchrm', ...kept, '--resume', runId].map(shellQuote).join(' ');
}

function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=@,+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function resolveResumeRun(store: Store, resume: string | true): string {
  if (resume !== true) return resume;
  const run = store.latestUnfinishedRun('collect');
  if (!run) throw new UserError('--resume: this database has no unfinished collection run; start one without --resume');
  return run.id;
}

function formatSummary(summary: CollectSummary, db: string): string {
  const statuses = Object.entries(summary.byStatus)
    .map(([status, count]) => `${status} ${count}`)
    .join(', ');
  const accuracy = summary.accuracy === null ? 'n/a (no gold answers)' : `${(summary.accuracy * 100).toFixed(1)}% (${summary.correct}/${summary.graded})`;
  const lines = [
    `run ${summary.runId}: ${summary.episodes} of ${summary.total} episodes${summary.skipped > 0 ? ` (${summary.skipped} committed earlier, not redone)` : ''}; this invocation took ${(summary.wallTimeMs / 1000).toFixed(1)} s -> ${db}`,
    `  status     ${statuses || '(none)'}`,
    `  accuracy   ${accuracy}`,
    `  tokens     orchestrator ${summary.tokens.orchestrator.totalTokens}, execution ${summary.tokens.execution.totalTokens}, verification ${summary.tokens.verification.totalTokens} (mean ${summary.meanTokensPerEpisode.toFixed(0)} per episode)`,
    `  calls      ${summary.calls.total} (${summary.calls.failed} failed, ${summary.calls.retries} retries, ${summary.calls.cached} from cache)`,
  ];
  if (summary.templates !== undefined) {
    const all = summary.tokens.orchestrator.totalTokens + summary.tokens.execution.totalTokens + summary.tokens.verification.totalTokens;
    const { orchestrator, execution, verification } = summary.templates.tokens;
    const share = all > 0 ? (orchestrator.totalTokens + execution.totalTokens + verification.totalTokens) / all : 0;
    lines.push(`  templates  ${summary.templates.episodes} episodes on ${summary.templates.tasks} tasks, ${(share * 100).toFixed(1)}% of the run's tokens`);
  }
  for (const failure of summary.failures) lines.push(`  failed     ${failure.episodes} episode(s): ${failure.message}`);
  lines.push(`  inspect    npx orchrm inspect <episode-id> --db ${db}`, '');
  return lines.join('\n');
}
