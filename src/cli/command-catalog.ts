import { Help, type Command } from 'commander';

export type RegisterCommand = (program: Command) => void;

/** One top-level command: what `orchrm --help` lists for it, and how to load its module. */
export interface CatalogEntry {
  readonly name: string;
  /** The command with its arguments, as the help's command list shows it. */
  readonly term: string;
  /** The command's one-line description; its module registers it with this text. */
  readonly summary: string;
  /** Modules that add the command (or subcommands under it), loaded only when it runs. */
  readonly load: readonly (() => Promise<RegisterCommand>)[];
}

/**
 * Every top-level command, in the order `orchrm --help` lists them. The help is printed from this
 * list alone: loading every command's module would cost seconds (the whole pipeline, zod
 * schemas, the openai client) that `orchrm --help` should not pay.
 */
export const COMMAND_CATALOG = [
  {
    name: 'demo',
    term: 'demo [options]',
    summary: 'Collect episodes, mine pairs without labels, train a reward model, then compare Best-of-N and reward-guided training with their baselines; writes results.json and report.html.',
    load: [async () => (await import('./commands/demo.js')).registerDemoCommand],
  },
  {
    name: 'loop',
    term: 'loop [options]',
    summary: 'Self-improvement rounds on the simulated environment: collect with the current reward model ranking plans, mine pairs from everything so far, retrain, measure.',
    load: [async () => (await import('./commands/loop.js')).registerLoopCommand],
  },
  {
    name: 'collect',
    term: 'collect [options]',
    summary: 'Sample plans for each task, execute them, and store every episode with all its artifacts.',
    load: [async () => (await import('./commands/collect.js')).registerCollectCommand],
  },
  {
    name: 'inspect',
    term: 'inspect [options] [episode-id]',
    summary: 'Print a readable trace of one stored episode: plan, nodes, calls, artifacts, answer, tokens.',
    load: [async () => (await import('./commands/inspect.js')).registerInspectCommand],
  },
  {
    name: 'view',
    term: 'view [options]',
    summary: "Browse a database in the browser: tasks, each task's plans as graphs side by side with outcomes, tokens and the reward model's score and reasons, every node's artifacts, and the mined pairs.",
    load: [async () => (await import('./commands/view.js')).registerViewCommand],
  },
  {
    name: 'export',
    term: 'export [options]',
    summary: 'Write stored episodes as JSONL, one complete episode per line (docs/episode-format.md).',
    load: [async () => (await import('./commands/export.js')).registerExportCommand],
  },
  {
    name: 'import',
    term: 'import [options] <file.jsonl>',
    summary: 'Import episodes from JSONL (validated first; all or nothing; already stored ones are skipped).',
    load: [async () => (await import('./commands/import.js')).registerImportCommand],
  },
  {
    name: 'plan',
    term: 'plan',
    summary: 'Work with orchestration plans.',
    load: [async () => (await import('./commands/plan-check.js')).registerPlanCheckCommand],
  },
  {
    name: 'sim',
    term: 'sim',
    summary: 'The controlled environment: simulated tasks, sub-agent models and orchestrator (docs/sim.md).',
    load: [
      async () => (await import('./commands/sim.js')).registerSimCommand,
      async () => (await import('./commands/sim-calibrate.js')).registerSimCalibrateCommand,
      async () => (await import('./commands/sim-improve.js')).registerSimImproveCommand,
    ],
  },
  {
    name: 'tasks',
    term: 'tasks',
    summary: 'Work with benchmark task files.',
    load: [async () => (await import('./commands/tasks.js')).registerTasksCommand],
  },
  {
    name: 'grade',
    term: 'grade [options]',
    summary: "Grade one answer against a gold answer with a suite's grader (math equivalence, AIME integers, QA exact match).",
    load: [async () => (await import('./commands/grade.js')).registerGradeCommand],
  },
  {
    name: 'retrieve',
    term: 'retrieve [options]',
    summary: 'Search a corpus with BM25, as search blocks do, and print the top documents.',
    load: [async () => (await import('./commands/retrieve.js')).registerRetrieveCommand],
  },
  {
    name: 'pairs',
    term: 'pairs',
    summary: 'Mine, inspect, export and import win-lose plan pairs (docs/pairs.md).',
    load: [async () => (await import('./commands/pairs.js')).registerPairsCommand],
  },
  {
    name: 'rm',
    term: 'rm',
    summary: 'Train, evaluate and use Bradley-Terry reward models over plans.',
    load: [async () => (await import('./commands/rm.js')).registerRmCommand],
  },
  {
    name: 'bon',
    term: 'bon [options]',
    summary: 'Best-of-N: sample N plans per task, choose with the reward model or a baseline, and compare accuracy and tokens.',
    load: [async () => (await import('./commands/bon.js')).registerBonCommand],
  },
  {
    name: 'grpo',
    term: 'grpo [options]',
    summary: 'Train the simulated orchestrator with GRPO: reward model (nothing executed), execution, plan judge, or hybrid.',
    load: [async () => (await import('./commands/grpo.js')).registerGrpoCommand],
  },
  {
    name: 'serve',
    term: 'serve [options]',
    summary: 'Serve a reward model over HTTP: POST /v1/score, POST /get_reward (OpenRLHF), GET /healthz, GET /metrics (docs/integrations.md).',
    load: [async () => (await import('./commands/serve.js')).registerServeCommand],
  },
  {
    name: 'report',
    term: 'report [options] <dir>',
    summary: 'Write <dir>/report.html (one self-contained page: charts as inline SVG, tables, no network) from <dir>/results.json.',
    load: [async () => (await import('./commands/report.js')).registerReportCommand],
  },
] as const satisfies readonly CatalogEntry[];

export type CommandName = (typeof COMMAND_CATALOG)[number]['name'];

/** The one-line description of a top-level command, for the module that registers it. */
export function commandSummary(name: CommandName): string {
  return COMMAND_CATALOG.find((entry) => entry.name === name)!.summary;
}

/**
 * Lists every catalog command under `program` without loading any command module, so that
 * `orchrm --help` and the "did you mean" suggestion for a typo cost no more than commander.
 */
export function listCatalogCommands(program: Command): void {
  const terms = new Map<string, string>(COMMAND_CATALOG.map((entry) => [entry.name, entry.term]));
  const standard = new Help();
  program.configureHelp({ subcommandTerm: (command) => terms.get(command.name()) ?? standard.subcommandTerm(command) });
  for (const entry of COMMAND_CATALOG) program.command(entry.name).description(entry.summary);
}
