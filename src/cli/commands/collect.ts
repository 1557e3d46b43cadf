import type { Command } from 'commander';
import { collectEpisodes, type CollectSummary } from '../../collect/index.js';
import { UserError } from '../../core/errors.js';
import { openStore, type Store } from '../../store/index.js';
import { createProgress } from '../progress.js';
import { parseIntegerOption, runAction } from '../run-action.js';
import { resolveCollectSetup, type CollectSetupFlags } from './collect-setup.js';

interface CollectFlags extends CollectSetupFlags {
  plansPerTask: number;
  concurrency: number;
  seed: number;
  tokenBudget?: number;
  timeoutMs?: number;
  keepPrompts: boolean;
  resume?: string | true;
  json: boolean;
}

export function registerCollectCommand(program: Command): void {
  program
    .command('collect')
    .description('Sample plans for each task, execute them, and store every episode with all its artifacts.')
    .option('--tasks <file.jsonl>', 'tasks, one JSON object per line: {"id", "question", "answer"?}')
    .option('--suite <suite>', 'format of --tasks: gsm8k, math, aime, hotpotqa, musique, jsonl or auto; also picks the grader (default: generic JSONL, exact match)')
    .option('--question-field <path>', 'with --suite jsonl: field holding the question')
    .option('--answer-field <path>', 'with --suite jsonl: field holding the gold answer')
    .option('--id-field <path>', 'with --suite jsonl: field holding the task id')
    .option('--scenario <name|file>', 'generate tasks from a simulated scenario instead (see orchrm sim scenarios)')
    .option('--split <split>', 'with --scenario: train or test (disjoint questions)', 'train')
    .option('--count <n>', 'with --scenario: number of tasks', parseIntegerOption('--count', 1), 100)
    .option('--provider <config.json>', 'OpenAI-compatible provider config; without it, --scenario simulates the models in-process')
    .option('--orchestrator <model>', 'orchestrator model; sim:<checkpoint> is a simulated checkpoint (e.g. sim:base)')
    .option('--checkpoint <file>', 'extra simulated orchestrator checkpoint to serve (repeatable)', (value: string, list: string[]) => [...list, value], [])
    .option('--plans-per-task <n>', 'plans sampled and executed per task', parseIntegerOption('--plans-per-task', 1), 1)
    .option('--concurrency <n>', 'episodes executed at once', parseIntegerOption('--concurrency', 1), 4)
    .option('--db <path>', 'SQLite store to write', 'orchrm.db')
    .option('--seed <n>', 'run seed; every call seed derives from it', parseIntegerOption('--seed', 0), 0)
    .option('--format <format>', 'plan format the orchestrator is asked for: json or xml', 'json')
    .option('--dom <dom>', 'degree of MAS asked for: low, high or auto', 'auto')
    .option('--corpus <file.jsonl>', 'corpus ({"id","title","text"} per line) for search blocks, BM25-indexed')
    .option('--token-budget <n>', 'execution tokens one episode may spend', parseIntegerOption('--token-budget', 1))
    .option('--timeout-ms <n>', 'wall time one episode may take, in milliseconds', parseIntegerOption('--timeout-ms', 1))
    .option('--keep-prompts', 'store full prompts of every call (responses are always stored)', false)
    .option('--no-cache', 'do not read or write the response cache')
    .option('--resume [run-id]', 'continue a killed or failed run (default: the newest unfinished one); committed samples are not redone')
    .option('--json', 'print the summary as JSON on stdout', false)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  orchrm collect --tasks tasks.jsonl --provider vllm.json --plans-per-task 8 --concurrency 16 --db runs.db --seed 1',
        '  orchrm collect --scenario default --orchestrator sim:base --count 200 --plans-per-task 4 --db sim.db',
      ].join('\n'),
    )
    .action(runAction(async (flags: CollectFlags) => collect(flags)));
}

async function collect(flags: CollectFlags): Promise<void> {
  const setup = await resolveCollectSetup(flags);
  const store = openStore(flags.db, { keepPrompts: flags.keepPrompts });
  try {
    const resumeRunId = flags.resume === undefined ? undefined : resolveResumeRun(store, flags.resume);
    const progress = createProgress('collect', setup.tasks.length * flags.plansPerTask);
    const summary = await collectEpisodes({
      tasks: setup.tasks,
      orchestrator: setup.orchestrator,
      provider: setup.provider,
      blocks: setup.blocks,
      store,
      plansPerTask: flags.plansPerTask,
      concurrency: flags.concurrency,
      seed: flags.seed,
      grader: setup.grader,
      ...(setup.retriever !== undefined && { retriever: setup.retriever }),
      ...(flags.tokenBudget !== undefined && { tokenBudget: flags.tokenBudget }),
      ...(flags.timeoutMs !== undefined && { timeoutMs: flags.timeoutMs }),
      config: { ...setup.config, keepPrompts: flags.keepPrompts },
      ...(resumeRunId !== undefined && { resumeRunId }),
      onEpisode: (episode, done) => progress.update(done, episode?.status ?? 'already committed'),
    });
    progress.stop();
    process.stdout.write(flags.json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary, flags.db));
  } finally {
    setup.close();
    store.close();
  }
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
  return [
    `run ${summary.runId}: ${summary.episodes} episodes${summary.skipped > 0 ? ` (${summary.skipped} already committed, not redone)` : ''} in ${(summary.wallTimeMs / 1000).toFixed(1)} s -> ${db}`,
    `  status     ${statuses}`,
    `  accuracy   ${accuracy}`,
    `  tokens     orchestrator ${summary.tokens.orchestrator.totalTokens}, execution ${summary.tokens.execution.totalTokens}, verification ${summary.tokens.verification.totalTokens} (mean ${summary.meanTokensPerEpisode.toFixed(0)} per episode)`,
    `  calls      ${summary.calls.total} (${summary.calls.failed} failed, ${summary.calls.retries} retries, ${summary.calls.cached} from cache)`,
    `  inspect    orchrm inspect <episode-id> --db ${db}`,
    '',
  ].join('\n');
}
